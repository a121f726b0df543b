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
import type { McpClient } from "../../src/client/index.js";
import { createFilesystemServer } from "../../src/servers/filesystem/index.js";
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
