import { readdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import type { McpClient } from "../../src/client/index.js";
import { McpError } from "../../src/jsonrpc/errors.js";
import { SECRET, useSandbox } from "../helpers/fs-sandbox.js";

const box = useSandbox();
let root = "";
let evil = "";
let outside = "";
beforeEach(() => {
  ({ root, evil, outside } = box);
});
const start = () => box.start();

/** Calls a tool that must be refused: an isError result naming the path, revealing nothing. */
async function refused(
  client: McpClient,
  name: string,
  args: Record<string, unknown>,
  named: string,
): Promise<string> {
  const result = await client.callTool(name, args);
  const text = result.text();
  expect(result.isError, `${name} ${JSON.stringify(args)}: ${text}`).toBe(true);
  expect(text).toContain(named);
  expect(text).not.toContain(SECRET);
  return text;
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

/** Paths that lead outside, each with what its refusal says. */
function escapes(): [string, RegExp][] {
  return [
    ["../outside/secret.txt", /Access denied: .* escapes the allowed directories with "\.\."/],
    [`${root}/../outside/secret.txt`, /Access denied: .* escapes the allowed directories with "\.\."/],
    [`${root}/sub/../../outside/secret.txt`, /escapes the allowed directories/],
    [path.join(outside, "secret.txt"), /Access denied: .* is outside the allowed directories/],
    [path.join(evil, "secret.txt"), /Access denied: .* is outside the allowed directories/],
    [`${root}_evil/secret.txt`, /is outside the allowed directories/],
    ["/etc/passwd", /is outside the allowed directories/],
    [path.join(root, "link-out"), /Access denied: .* leads through a symbolic link to a place outside/],
    [path.join(root, "dir-out", "secret.txt"), /leads through a symbolic link to a place outside/],
    [path.join(root, "sub", "evil", "secret.txt"), /leads through a symbolic link to a place outside/],
    [`${root}/hello.txt\0`, /contains a NUL character/],
  ];
}

describe("filesystem safety: reads", () => {
  it("read_file and get_file_info refuse every escape", async () => {
    const client = await start();
    for (const [requested, why] of escapes()) {
      for (const tool of ["read_file", "get_file_info"]) {
        expect(await refused(client, tool, { path: requested }, requested)).toMatch(why);
      }
      await refused(client, "read_file", { path: requested, head: 1 }, requested);
      await refused(client, "read_file", { path: requested, tail: 1 }, requested);
    }
    // Links that stay inside are followed.
    expect((await client.callTool("read_file", { path: path.join(root, "link-in") })).text()).toBe("hello");
  });

  it("list_directory, search_files and the prompt refuse directories outside", async () => {
    const client = await start();
    for (const dir of [
      "..",
      "../outside",
      outside,
      evil,
      `${root}_evil`,
      path.join(root, "dir-out"),
      path.join(root, "sub", "evil"),
    ]) {
      await refused(client, "list_directory", { path: dir }, dir);
      await refused(client, "search_files", { path: dir, pattern: "*" }, dir);
      const error = await rejection(client.getPrompt("summarise_project", { directory: dir }));
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(/Access denied/);
    }
  });

  it("search_files does not follow links out of the root", async () => {
    const client = await start();
    const found = (await client.callTool("search_files", { path: root, pattern: "*" })).text().split("\n");
    expect(found.sort()).toEqual(
      ["dangling-out", "dir-out", "hello.txt", "link-in", "link-out", "sub", "sub/evil"].map((p) =>
        path.join(root, p),
      ),
    );
    const secret = await client.callTool("search_files", { path: root, pattern: "secret*" });
    expect(secret.text()).toBe(`No matches for "secret*" in ${root}.`);
  });

  it("resources are refused outside and never listed from outside", async () => {
    const client = await start();
    const uris = (await client.listResources()).map((r) => r.uri);
    expect(uris).toEqual([pathToFileURL(path.join(root, "hello.txt")).href]);
    for (const file of [
      path.join(outside, "secret.txt"),
      path.join(evil, "secret.txt"),
      path.join(root, "link-out"),
      path.join(root, "dir-out", "secret.txt"),
      path.join(root, "sub", "evil", "secret.txt"),
    ]) {
      const error = await rejection(client.readResource(pathToFileURL(file).href));
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(/^Access denied: /);
      expect(error.message).not.toContain(SECRET);
    }
    const dotted = await rejection(client.readResource(`file://${root}/../outside/secret.txt`));
    expect(dotted.message).toMatch(/Access denied/);
    const encoded = await rejection(client.readResource(`file://${root}/%2E%2E/outside/secret.txt`));
    expect(encoded.message).toMatch(/Access denied/);
  });
});

describe("filesystem safety: writes", () => {
  it("write_file refuses every escape, links, and new files under a linked directory", async () => {
    const client = await start();
    for (const [requested, why] of escapes()) {
      if (requested.endsWith("link-out")) continue; // below: a link is refused as such
      expect(await refused(client, "write_file", { path: requested, content: "pwned" }, requested)).toMatch(
        why,
      );
    }
    const cases: [string, RegExp][] = [
      [path.join(root, "link-out"), /Refusing to write .*: it is a symbolic link/],
      [path.join(root, "link-in"), /Refusing to write .*: it is a symbolic link/],
      [path.join(root, "dangling-out"), /Refusing to write .*: it is a symbolic link/],
      [
        path.join(root, "dir-out", "new.txt"),
        /Access denied: .* is in a directory that leads through a symbolic link/,
      ],
      [path.join(root, "dir-out", "secret.txt"), /is in a directory that leads through a symbolic link/],
      [path.join(root, "sub", "evil", "new.txt"), /is in a directory that leads through a symbolic link/],
      ["../outside/new.txt", /escapes the allowed directories/],
      [`${root}_evil/new.txt`, /is outside the allowed directories/],
    ];
    for (const [requested, why] of cases) {
      expect(await refused(client, "write_file", { path: requested, content: "pwned" }, requested)).toMatch(
        why,
      );
    }
    expect(readFileSync(path.join(root, "hello.txt"), "utf8")).toBe("hello");
  });

  it("edit_file refuses escapes and links, dry run or not", async () => {
    const client = await start();
    const edits = [{ oldText: "TOP", newText: "PWNED" }];
    for (const requested of [
      path.join(root, "link-out"),
      path.join(root, "dir-out", "secret.txt"),
      path.join(outside, "secret.txt"),
      path.join(evil, "secret.txt"),
      "../outside/secret.txt",
      path.join(root, "link-in"),
    ]) {
      await refused(client, "edit_file", { path: requested, edits }, requested);
      await refused(client, "edit_file", { path: requested, edits, dryRun: true }, requested);
    }
  });

  it("move_file refuses sources and destinations outside", async () => {
    const client = await start();
    const hello = path.join(root, "hello.txt");
    for (const destination of [
      path.join(outside, "moved.txt"),
      path.join(evil, "moved.txt"),
      "../outside/moved.txt",
      path.join(root, "dir-out", "moved.txt"),
      path.join(root, "sub", "evil", "moved.txt"),
    ]) {
      await refused(client, "move_file", { source: hello, destination }, destination);
    }
    for (const source of [
      path.join(outside, "secret.txt"),
      path.join(evil, "secret.txt"),
      path.join(root, "dir-out", "secret.txt"),
    ]) {
      await refused(client, "move_file", { source, destination: path.join(root, "stolen.txt") }, source);
    }
    await refused(
      client,
      "move_file",
      { source: path.join(root, "dir-out"), destination: path.join(outside, "x") },
      "x",
    );
    expect(readFileSync(hello, "utf8")).toBe("hello");
    expect(readdirSync(root).sort()).toEqual([
      "dangling-out",
      "dir-out",
      "hello.txt",
      "link-in",
      "link-out",
      "sub",
    ]);
  });
});

describe("filesystem safety: a root given through a link", () => {
  it("accepts paths through the link and still refuses escapes from it", async () => {
    const alias = path.join(path.dirname(root), "alias");
    symlinkSync(root, alias);
    const client = await box.start([alias]);
    expect((await client.callTool("list_allowed_directories", {})).text()).toBe(
      `Allowed directories:\n${root}`,
    );
    expect((await client.callTool("read_file", { path: path.join(alias, "hello.txt") })).text()).toBe(
      "hello",
    );
    for (const requested of [
      `${alias}/../outside/secret.txt`,
      `${alias}_evil/secret.txt`,
      path.join(alias, "link-out"),
      path.join(alias, "dir-out", "secret.txt"),
    ]) {
      await refused(client, "read_file", { path: requested }, requested);
      await refused(client, "write_file", { path: requested, content: "pwned" }, requested);
    }
  });
});
