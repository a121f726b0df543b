import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { createFromArgs } from "../../src/servers/filesystem/index.js";
import { rejection } from "../helpers/connect.js";
import { fails, ok, useProject } from "../helpers/fs-sandbox.js";

// A real directory tree per test: the allowed root, and a sibling outside it.
const project = useProject();
const { start, at, read } = project;
let root: string;
let outside: string;
beforeEach(() => {
  ({ root, outside } = project);
});

describe("filesystem server: moves and metadata", () => {
  it("move_file renames files and directories, never over an existing destination", async () => {
    const client = await start();
    expect(await ok(client, "move_file", { source: at("hello.txt"), destination: at("src", "hi.txt") })).toBe(
      `Moved ${at("hello.txt")} to ${at("src", "hi.txt")}.`,
    );
    expect(read("src", "hi.txt")).toMatch(/^line 1/);
    expect(() => statSync(at("hello.txt"))).toThrow();
    await ok(client, "move_file", { source: "src/lib", destination: "lib2" });
    expect(readdirSync(at("lib2")).sort()).toEqual(["util.test.ts", "util.ts"]);
    expect(
      await fails(client, "move_file", { source: at("README.md"), destination: at("src", "main.ts") }),
    ).toMatch(/Cannot move ".*README\.md" to ".*main\.ts": the destination already exists/);
    expect(read("src", "main.ts")).toBe("export const main = 1;\n");
    expect(await fails(client, "move_file", { source: at("src"), destination: at("lib2") })).toMatch(
      /already exists/,
    );
    expect(await fails(client, "move_file", { source: at("src"), destination: at("src", "inner") })).toMatch(
      /into itself/,
    );
    expect(await fails(client, "move_file", { source: at("gone.txt"), destination: at("x.txt") })).toMatch(
      /gone\.txt.*does not exist/,
    );
    expect(await fails(client, "move_file", { source: root, destination: at("x") })).toMatch(
      /is an allowed directory itself/,
    );
  });

  it("get_file_info and list_allowed_directories", async () => {
    const client = await start();
    const info = await ok(client, "get_file_info", { path: at("hello.txt") });
    expect(info).toMatch(
      new RegExp(
        `^path: ${at("hello.txt")}\ntype: file\nsize: 35 bytes \\(35 B\\)\ncreated: .*\nmodified: .*\naccessed: .*\npermissions: \\d{3}$`,
      ),
    );
    expect(await ok(client, "get_file_info", { path: "src" })).toMatch(/type: directory/);
    expect(await ok(client, "list_allowed_directories", {})).toBe(`Allowed directories:\n${root}`);
  });
});

describe("filesystem server: read-only", () => {
  it("registers no write tool, and calling one is an unknown tool", async () => {
    const client = await start({ readOnly: true });
    const names = (await client.listTools()).map((t) => t.name);
    expect(names.sort()).toEqual([
      "get_file_info",
      "list_allowed_directories",
      "list_directory",
      "read_file",
      "search_files",
    ]);
    for (const [name, args] of [
      ["write_file", { path: at("x.txt"), content: "x" }],
      ["edit_file", { path: at("hello.txt"), edits: [{ oldText: "line 1", newText: "x" }] }],
      ["move_file", { source: at("hello.txt"), destination: at("moved.txt") }],
    ] as const) {
      const error = await rejection(client.callTool(name, args));
      expect(error.code).toBe(-32602);
      expect(error.message).toBe(`Unknown tool: ${name}`);
    }
    expect(readdirSync(root).sort()).toEqual(["README.md", "hello.txt", "image.png", "src"]);
    expect(read("hello.txt")).toMatch(/^line 1/);
    expect(await ok(client, "read_file", { path: at("hello.txt"), head: 1 })).toBe("line 1");
  });
});

describe("filesystem server: resources and prompt", () => {
  it("lists files as file:// resources and reads text and binary files", async () => {
    const client = await start();
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual(["file:///{+path}"]);
    const resources = await client.listResources();
    const uri = (...parts: string[]) => pathToFileURL(at(...parts)).href;
    expect(resources.map((r) => r.uri)).toEqual([
      uri("README.md"),
      uri("hello.txt"),
      uri("image.png"),
      uri("src", "lib", "util.test.ts"),
      uri("src", "lib", "util.ts"),
      uri("src", "main.ts"),
    ]); // in URI order

    expect(resources[0]).toEqual({ uri: uri("README.md"), name: "README.md", mimeType: "text/markdown" });
    expect(resources[3]?.name).toBe("src/lib/util.test.ts");

    const text = await client.readResource(uri("hello.txt"));
    expect(text.contents).toEqual([
      { uri: uri("hello.txt"), mimeType: "text/plain", text: read("hello.txt") },
    ]);
    const image = await client.readResource(uri("image.png"));
    expect(image.contents).toEqual([
      {
        uri: uri("image.png"),
        mimeType: "image/png",
        blob: readFileSync(at("image.png")).toString("base64"),
      },
    ]);
    writeFileSync(at("with space #1.txt"), "spaced");
    const spaced = await client.readResource(uri("with space #1.txt"));
    expect(spaced.contents[0]).toMatchObject({ text: "spaced" });

    const missing = await rejection(client.readResource(uri("missing.txt")));
    // -32002 until 2025-11-25; a later revision answers a missing resource with -32602.
    expect(missing.code).toBe(client.protocolVersion <= "2025-11-25" ? -32002 : -32602);
    expect(missing.message).toMatch(/missing\.txt.*does not exist/);
    const directory = await rejection(client.readResource(uri("src")));
    expect(directory.code).toBe(-32602);
    expect(directory.message).toMatch(/is a directory/);
  });

  it("summarise_project gives the README and the tree of a directory", async () => {
    const client = await start();
    const [prompt] = await client.listPrompts();
    expect(prompt).toMatchObject({
      name: "summarise_project",
      arguments: [{ name: "directory", required: true }],
    });
    const result = await client.getPrompt("summarise_project", { directory: root });
    expect(result.messages).toHaveLength(1);
    const message = result.messages[0]!;
    expect(message.role).toBe("user");
    const body = message.content.type === "text" ? message.content.text : "";
    expect(body).toContain(`Summarise the project in ${root}`);
    expect(body).toContain("## README.md\n\n# Demo\n\nA demo project.\n");
    expect(body).toContain(
      [
        "allowed/",
        "  src/",
        "    lib/",
        "      util.test.ts",
        "      util.ts",
        "    main.ts",
        "  README.md",
        "  hello.txt",
        "  image.png",
      ].join("\n"),
    );
    const noReadme = await client.getPrompt("summarise_project", { directory: at("src") });
    const noReadmeText =
      noReadme.messages[0]?.content.type === "text" ? noReadme.messages[0].content.text : "";
    expect(noReadmeText).toContain("There is no README");

    const missing = await rejection(client.getPrompt("summarise_project", { directory: at("nope") }));
    expect(missing.code).toBe(-32602);
    expect(missing.message).toMatch(/nope.*does not exist/);
    expect((await rejection(client.getPrompt("summarise_project", {}))).code).toBe(-32602);

    const completion = await client.complete(
      { type: "ref/prompt", name: "summarise_project" },
      { name: "directory", value: `${root}/s` },
    );
    expect(completion.values).toEqual([at("src")]);
  });
});

describe("createFromArgs", () => {
  it("takes directories and --read-only, and refuses bad arguments", async () => {
    const client = await project.connect(createFromArgs([root, outside, "--read-only"]));
    expect((await client.listTools()).some((t) => t.name === "write_file")).toBe(false);
    expect(await ok(client, "list_allowed_directories", {})).toBe(
      `Allowed directories:\n${root}\n${outside}`,
    );
    expect(await ok(client, "read_file", { path: path.join(outside, "secret.txt") })).toBe("TOP SECRET");
    expect(() => createFromArgs([])).toThrow(
      /give at least one directory to allow \(usage: filesystem <dir…>/,
    );
    expect(() => createFromArgs(["--verbose", root])).toThrow(/unknown option --verbose/);
    expect(() => createFromArgs([path.join(root, "nope")])).toThrow(/does not exist/);
    expect(() => createFromArgs([at("hello.txt")])).toThrow(/is not a directory/);
    expect(() => createFromArgs([root, "--max-file-size", "x"])).toThrow(/--max-file-size/);
    expect(() => createFromArgs([root, "--max-file-size"])).toThrow(/--max-file-size/);
    // After "--" everything is a directory.
    expect(() => createFromArgs([root, "--", "--read-only"])).toThrow(/"--read-only" does not exist/);
  });

  it("takes --max-file-size", async () => {
    writeFileSync(at("ten.txt"), "0123456789");
    const client = await project.connect(createFromArgs(["--max-file-size=9", root]));
    expect(await fails(client, "read_file", { path: at("ten.txt") })).toMatch(/over the 9 B read limit/);
    expect(await ok(client, "write_file", { path: at("new.txt"), content: "x" })).toMatch(/^Created/);
  });
});
