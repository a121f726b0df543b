import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { createFilesystemServer } from "../../src/servers/filesystem/index.js";
import { fails, ok, useProject } from "../helpers/fs-sandbox.js";

// A real directory tree per test: the allowed root, and a sibling outside it.
const project = useProject();
const { start, at, read } = project;
let root: string;
let outside: string;
beforeEach(() => {
  ({ root, outside } = project);
});

describe("filesystem server: tools", () => {
  it("lists every tool with annotations that say which ones write", async () => {
    const client = await start();
    const tools = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "edit_file",
      "get_file_info",
      "list_allowed_directories",
      "list_directory",
      "move_file",
      "read_file",
      "search_files",
      "write_file",
    ]);
    const hints = Object.fromEntries(
      tools.map((t) => [t.name, [t.annotations?.readOnlyHint, t.annotations?.destructiveHint]]),
    );
    for (const name of [
      "read_file",
      "list_directory",
      "search_files",
      "get_file_info",
      "list_allowed_directories",
    ]) {
      expect(hints[name]).toEqual([true, false]);
    }
    expect(hints.write_file).toEqual([false, true]);
    expect(hints.edit_file).toEqual([false, true]);
    expect(hints.move_file).toEqual([false, false]);
    for (const tool of tools) expect(tool.inputSchema.type).toBe("object");
  });

  it("read_file reads whole files, the first or last lines, and relative paths", async () => {
    const client = await start();
    expect(await ok(client, "read_file", { path: at("hello.txt") })).toBe(read("hello.txt"));
    expect(await ok(client, "read_file", { path: "hello.txt" })).toBe(read("hello.txt"));
    expect(await ok(client, "read_file", { path: at("hello.txt"), head: 2 })).toBe("line 1\nline 2");
    expect(await ok(client, "read_file", { path: at("hello.txt"), tail: 2 })).toBe("line 4\nline 5");
    expect(await ok(client, "read_file", { path: at("hello.txt"), head: 99 })).toBe(read("hello.txt"));
    expect(await ok(client, "read_file", { path: at("hello.txt"), tail: 99 })).toBe(
      "line 1\nline 2\nline 3\nline 4\nline 5",
    );
    writeFileSync(at("no-newline.txt"), "a\nb\nc");
    expect(await ok(client, "read_file", { path: at("no-newline.txt"), tail: 2 })).toBe("b\nc");
    expect(await ok(client, "read_file", { path: "./src/../src/main.ts" })).toBe("export const main = 1;\n");
    expect(await fails(client, "read_file", { path: at("hello.txt"), head: 1, tail: 1 })).toMatch(/not both/);
    expect(await fails(client, "read_file", { path: at("hello.txt"), head: 0 })).toMatch(/head/);
  });

  it("read_file refuses files over the size cap whole, but reads their head and tail", async () => {
    const client = await start({ maxFileSize: 1000 });
    const lines = Array.from({ length: 500 }, (_, i) => `row ${i}`);
    writeFileSync(at("big.log"), `${lines.join("\n")}\n`);
    const message = await fails(client, "read_file", { path: at("big.log") });
    expect(message).toContain(at("big.log"));
    expect(message).toMatch(/over the 1000 B read limit; read part of it with "head" or "tail"/);
    expect(await ok(client, "read_file", { path: at("big.log"), head: 3 })).toBe("row 0\nrow 1\nrow 2");
    expect(await ok(client, "read_file", { path: at("big.log"), tail: 2 })).toBe("row 498\nrow 499");
    const capped = await ok(client, "read_file", { path: at("big.log"), head: 400 });
    expect(capped).toMatch(/stopped after 1000 B, the read limit/);
    const tail = await ok(client, "read_file", { path: at("big.log"), tail: 400 });
    expect(tail).toMatch(/^\[started 1000 B from the end/);
    expect(tail.endsWith("row 499")).toBe(true);
  });

  it("read_file names the path in every failure", async () => {
    const client = await start();
    expect(await fails(client, "read_file", { path: at("missing.txt") })).toBe(
      `Cannot read "${at("missing.txt")}": it does not exist`,
    );
    expect(await fails(client, "read_file", { path: at("src") })).toBe(
      `"${at("src")}" is a directory, not a file`,
    );
    expect(await fails(client, "read_file", { path: at("image.png") })).toMatch(/is a binary file/);
    expect(await fails(client, "read_file", { path: "" })).toMatch(/path is required/);
    expect(await fails(client, "read_file", {})).toMatch(/Invalid arguments for tool read_file/);
    // A FIFO with no writer: refused at once, not waited on.
    execFileSync("mkfifo", [at("fifo")]);
    expect(await fails(client, "read_file", { path: at("fifo") })).toBe(
      `"${at("fifo")}" is not a regular file`,
    );
    expect(await fails(client, "read_file", { path: at("fifo"), head: 1 })).toMatch(/is not a regular file/);
    expect(await fails(client, "write_file", { path: at("fifo"), content: "x" })).toMatch(
      /is not a regular file/,
    );
    expect(await ok(client, "get_file_info", { path: at("fifo") })).toMatch(/type: other/);
  });

  it("works the same under the oldest revision, 2024-11-05", async () => {
    const client = await project.connect(createFilesystemServer({ roots: [root] }), {
      protocolVersion: "2024-11-05",
    });
    expect(client.protocolVersion).toBe("2024-11-05");
    expect((await client.listTools()).map((t) => t.name)).toContain("edit_file");
    expect(await ok(client, "read_file", { path: at("hello.txt"), tail: 1 })).toBe("line 5");
    expect(await fails(client, "read_file", { path: path.join(outside, "secret.txt") })).toMatch(
      /^Access denied/,
    );
  });

  it("write_file creates and replaces files atomically, keeping permissions", async () => {
    const client = await start();
    expect(await ok(client, "write_file", { path: at("new.txt"), content: "fresh" })).toBe(
      `Created ${at("new.txt")} (5 B).`,
    );
    expect(read("new.txt")).toBe("fresh");
    chmodSync(at("hello.txt"), 0o640);
    expect(await ok(client, "write_file", { path: "hello.txt", content: "héllo" })).toBe(
      `Replaced ${at("hello.txt")} (6 B).`,
    );
    expect(read("hello.txt")).toBe("héllo");
    expect(statSync(at("hello.txt")).mode & 0o777).toBe(0o640);
    expect(readdirSync(root).filter((name) => name.endsWith(".tmp"))).toEqual([]); // no temporary file left
    expect(await fails(client, "write_file", { path: at("nope", "x.txt"), content: "" })).toMatch(
      /its directory does not exist/,
    );
    expect(await fails(client, "write_file", { path: at("src"), content: "" })).toMatch(/is a directory/);
    expect(await fails(client, "write_file", { path: root, content: "" })).toMatch(
      /is an allowed directory itself/,
    );
  });

  it("edit_file applies exact edits in order, shows a diff, and changes nothing on a dry run or a failure", async () => {
    const client = await start();
    const edits = [
      { oldText: "line 2", newText: "LINE TWO" },
      { oldText: "LINE TWO\nline 3", newText: "LINE TWO\nline 3 $& $1" },
    ];
    const dry = await ok(client, "edit_file", { path: at("hello.txt"), edits, dryRun: true });
    expect(dry).toContain("Dry run: nothing was written.");
    expect(read("hello.txt")).toBe("line 1\nline 2\nline 3\nline 4\nline 5\n");
    const done = await ok(client, "edit_file", { path: at("hello.txt"), edits });
    expect(done).toBe(
      [
        `Applied 2 edits to ${at("hello.txt")}.`,
        "```diff",
        `--- ${at("hello.txt")}`,
        `+++ ${at("hello.txt")}`,
        "@@ -1,6 +1,6 @@",
        " line 1",
        "-line 2",
        "-line 3",
        "+LINE TWO",
        "+line 3 $& $1",
        " line 4",
        " line 5",
        " ",
        "```",
      ].join("\n"),
    );
    expect(read("hello.txt")).toBe("line 1\nLINE TWO\nline 3 $& $1\nline 4\nline 5\n");
    expect(dry.slice(dry.indexOf("```"))).toBe(done.slice(done.indexOf("```")));

    const before = read("hello.txt");
    expect(
      await fails(client, "edit_file", {
        path: at("hello.txt"),
        edits: [{ oldText: "absent", newText: "x" }],
      }),
    ).toMatch(/Cannot edit ".*hello\.txt": the edit does not match/);
    expect(
      await fails(client, "edit_file", { path: at("hello.txt"), edits: [{ oldText: "line", newText: "x" }] }),
    ).toMatch(/is ambiguous: its oldText occurs 4 times/);
    const second = await fails(client, "edit_file", {
      path: at("hello.txt"),
      edits: [
        { oldText: "line 1", newText: "ONE" },
        { oldText: "line 1", newText: "again" },
      ],
    });
    expect(second).toMatch(/edit 2 of 2 does not match: .*; nothing was changed$/);
    expect(read("hello.txt")).toBe(before);
    expect(await fails(client, "edit_file", { path: at("missing.txt"), edits })).toMatch(
      /missing\.txt.*does not exist/,
    );
  });

  it("edit_file keeps CRLF line ends and shows separate hunks for distant edits", async () => {
    const client = await start();
    writeFileSync(at("crlf.txt"), "a\r\nb\r\nc\r\n");
    await ok(client, "edit_file", { path: at("crlf.txt"), edits: [{ oldText: "a\nb", newText: "A\nB" }] });
    expect(read("crlf.txt")).toBe("A\r\nB\r\nc\r\n");
    const lines = Array.from({ length: 40 }, (_, i) => `l${i}`);
    writeFileSync(at("long.txt"), lines.join("\n"));
    const diff = await ok(client, "edit_file", {
      path: at("long.txt"),
      edits: [
        { oldText: "l5\n", newText: "five\n" },
        { oldText: "l30\n", newText: "" },
      ],
      dryRun: true,
    });
    expect(diff.match(/^@@ .* @@$/gm)).toEqual(["@@ -3,7 +3,7 @@", "@@ -28,7 +28,6 @@"]);
  });

  it("list_directory marks directories, files and links", async () => {
    const client = await start();
    symlinkSync(at("hello.txt"), at("link.txt"));
    expect(await ok(client, "list_directory", { path: root })).toBe(
      ["[FILE] README.md", "[FILE] hello.txt", "[FILE] image.png", "[LINK] link.txt", "[DIR] src"].join("\n"),
    );
    mkdirSync(at("empty"));
    expect(await ok(client, "list_directory", { path: "empty" })).toBe(`${at("empty")} is empty.`);
    expect(await fails(client, "list_directory", { path: at("hello.txt") })).toMatch(
      /hello\.txt.*is not a directory/,
    );
  });

  it("search_files matches names, relative paths, exclusions, and is bounded", async () => {
    const client = await start();
    const lines = (text: string) => text.split("\n");
    expect(lines(await ok(client, "search_files", { path: root, pattern: "*.ts" }))).toEqual([
      at("src", "main.ts"),
      at("src", "lib", "util.test.ts"),
      at("src", "lib", "util.ts"),
    ]);
    expect(lines(await ok(client, "search_files", { path: root, pattern: "src/**/*.test.ts" }))).toEqual([
      at("src", "lib", "util.test.ts"),
    ]);
    expect(lines(await ok(client, "search_files", { path: root, pattern: "*.{md,png}" }))).toEqual([
      at("README.md"),
      at("image.png"),
    ]);
    expect(lines(await ok(client, "search_files", { path: root, pattern: "util" }))).toEqual([
      at("src", "lib", "util.test.ts"),
      at("src", "lib", "util.ts"),
    ]);
    expect(
      lines(await ok(client, "search_files", { path: root, pattern: "*.ts", excludePatterns: ["lib"] })),
    ).toEqual([at("src", "main.ts")]);
    expect(lines(await ok(client, "search_files", { path: "src", pattern: "*", maxResults: 2 }))).toEqual([
      at("src", "lib"),
      at("src", "main.ts"),
      "[search stopped early: reached 2 results]",
    ]);
    expect(await ok(client, "search_files", { path: root, pattern: "*.py" })).toBe(
      `No matches for "*.py" in ${root}.`,
    );
    expect(await fails(client, "search_files", { path: root, pattern: "{a,b" })).toMatch(/unclosed "\{"/);
    expect(await fails(client, "search_files", { path: root, pattern: "*", maxResults: 5000 })).toMatch(
      /maxResults/,
    );
  });
});

describe("filesystem server paths on POSIX", () => {
  it("refuses a path with a backslash instead of reading a file of that name inside the root", async () => {
    writeFileSync(path.join(root, "C:\\Windows\\win.ini"), "inside the root");
    const client = await start();
    const text = await fails(client, "read_file", { path: "C:\\Windows\\win.ini" });
    expect(text).toContain('Invalid path "C:\\Windows\\win.ini": it contains "\\"');
    expect(await ok(client, "read_file", { path: "hello.txt" })).toContain("line 1");
  });
});
