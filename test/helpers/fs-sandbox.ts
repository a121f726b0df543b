import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, expect } from "vitest";
import type { CommonClientOptions, McpClient } from "../../src/client/index.js";
import type { McpServer } from "../../src/server/index.js";
import { createFilesystemServer, type FilesystemServerOptions } from "../../src/servers/filesystem/index.js";
import { connectInMemory } from "./connect.js";
import type { MessageLog } from "./spec-schema.js";

/** What the files outside the root hold; it must never leak. */
export const SECRET = "TOP SECRET";

/** Every file and link under a directory, with contents, as one string. */
export function snapshot(dir: string): string {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) {
        out.push(`${full}/`);
        walk(full);
      } else out.push(`${full}: ${entry.isFile() ? readFileSync(full, "utf8") : "(other)"}`);
    }
  };
  walk(dir);
  return out.join("\n");
}

/** The directories of one test, and a client of a filesystem server rooted in `root`. */
export interface Sandbox {
  /** The allowed directory. */
  root: string;
  /** A sibling sharing the root's name as a prefix (`allowed_evil`). */
  evil: string;
  outside: string;
  /** Connects a client to a filesystem server on `roots` (default: the root). */
  start(roots?: string[]): Promise<McpClient>;
  /** Takes what is outside now as the state to keep, after a test put something there itself. */
  rebaseline(): void;
}

/**
 * Per test: /…/allowed (the root), /…/allowed_evil, /…/outside, and links inside the root that lead
 * out. After each test, nothing outside the root was written, created or removed, and every message
 * was schema-valid.
 */
export function useSandbox(): Sandbox {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "mcpkit-fs-safety-")));
  let n = 0;
  let before = "";
  let session: { client: McpClient; log: MessageLog } | undefined;
  const box: Sandbox = {
    root: "",
    evil: "",
    outside: "",
    async start(roots = [box.root]) {
      session = await connectInMemory(createFilesystemServer({ roots }));
      return session.client;
    },
    rebaseline() {
      before = snapshot(box.outside) + snapshot(box.evil);
    },
  };
  beforeEach(() => {
    const dir = path.join(base, `t${++n}`);
    const root = path.join(dir, "allowed");
    const evil = path.join(dir, "allowed_evil");
    const outside = path.join(dir, "outside");
    Object.assign(box, { root, evil, outside });
    mkdirSync(path.join(root, "sub"), { recursive: true });
    mkdirSync(evil);
    mkdirSync(path.join(outside, "inner"), { recursive: true });
    writeFileSync(path.join(root, "hello.txt"), "hello");
    writeFileSync(path.join(outside, "secret.txt"), SECRET);
    writeFileSync(path.join(evil, "secret.txt"), SECRET);
    symlinkSync(path.join(outside, "secret.txt"), path.join(root, "link-out"));
    symlinkSync(outside, path.join(root, "dir-out"));
    symlinkSync(path.join(root, "hello.txt"), path.join(root, "link-in"));
    symlinkSync(path.join(outside, "new.txt"), path.join(root, "dangling-out"));
    symlinkSync("../../allowed_evil", path.join(root, "sub", "evil")); // relative
    before = snapshot(outside) + snapshot(evil);
  });
  afterEach(async () => {
    expect(snapshot(box.outside) + snapshot(box.evil)).toBe(before);
    if (!session) return;
    const { client, log } = session;
    session = undefined;
    expect(log.problems(client.protocolVersion)).toEqual([]);
    await client.close();
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  return box;
}

/** A small project tree per test, and a client of a filesystem server rooted in it. */
export interface Project {
  /** The allowed directory: hello.txt (5 lines), README.md, src/main.ts, src/lib/util{,.test}.ts, image.png. */
  root: string;
  /** A sibling of the root holding secret.txt. */
  outside: string;
  /** Connects a client to a filesystem server on the root, with `options` over the defaults. */
  start(options?: Partial<FilesystemServerOptions>): Promise<McpClient>;
  /** Connects a client to `server`, checked and closed after the test as `start`'s is. */
  connect(server: McpServer, options?: CommonClientOptions): Promise<McpClient>;
  /** A path under the root. */
  at(...parts: string[]): string;
  /** The text of a file under the root. */
  read(...parts: string[]): string;
}

/**
 * Per test: a fresh project tree (see {@link Project}). After each test, every message of the
 * session was schema-valid.
 */
export function useProject(): Project {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "mcpkit-fs-")));
  let n = 0;
  let session: { client: McpClient; log: MessageLog } | undefined;
  const project: Project = {
    root: "",
    outside: "",
    start: (options = {}) => project.connect(createFilesystemServer({ roots: [project.root], ...options })),
    async connect(server, options) {
      session = await connectInMemory(server, options);
      return session.client;
    },
    at: (...parts) => path.join(project.root, ...parts),
    read: (...parts) => readFileSync(project.at(...parts), "utf8"),
  };
  beforeEach(() => {
    const dir = path.join(base, `t${++n}`);
    const root = path.join(dir, "allowed");
    const outside = path.join(dir, "outside");
    Object.assign(project, { root, outside });
    mkdirSync(path.join(root, "src", "lib"), { recursive: true });
    mkdirSync(outside);
    writeFileSync(path.join(root, "hello.txt"), "line 1\nline 2\nline 3\nline 4\nline 5\n");
    writeFileSync(path.join(root, "README.md"), "# Demo\n\nA demo project.\n");
    writeFileSync(path.join(root, "src", "main.ts"), "export const main = 1;\n");
    writeFileSync(path.join(root, "src", "lib", "util.ts"), "export const util = 2;\n");
    writeFileSync(path.join(root, "src", "lib", "util.test.ts"), "test();\n");
    writeFileSync(path.join(root, "image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
    writeFileSync(path.join(outside, "secret.txt"), SECRET);
  });
  afterEach(async () => {
    if (!session) return;
    const { client, log } = session;
    session = undefined;
    expect(log.problems(client.protocolVersion)).toEqual([]);
    await client.close();
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  return project;
}

/** Calls a tool that must succeed; its text. */
export async function ok(client: McpClient, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool(name, args);
  expect(result.isError, result.text()).toBeFalsy();
  return result.text();
}

/** Calls a tool that must fail with an isError result; its text. */
export async function fails(client: McpClient, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool(name, args);
  expect(result.isError, result.text()).toBe(true);
  return result.text();
}
