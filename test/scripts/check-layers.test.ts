import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../scripts/check-layers.mjs", import.meta.url));
const run = promisify(execFile);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project with `files` under src/ and the public entries of the real one that matter here. */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "mcpkit-layers-test-"));
  dirs.push(root);
  const exports = {
    "./proxy": { types: "./dist/proxy/index.d.ts", default: "./dist/proxy/index.js" },
    "./extensions/tasks": {
      types: "./dist/extensions/tasks/index.d.ts",
      default: "./dist/extensions/tasks/index.js",
    },
  };
  writeFileSync(join(root, "package.json"), JSON.stringify({ exports }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, "src", dirname(path)), { recursive: true });
    writeFileSync(join(root, "src", path), text);
  }
  return root;
}

/** The script's verdict on a project: its exit code and what it printed. */
async function check(root: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, root]);
    return { code: 0, output: stderr + stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stderr + failed.stdout };
  }
}

const tasks = {
  "extensions/tasks/store.ts": "export interface TaskStore {}\n",
  "extensions/tasks/index.ts": 'export type { TaskStore } from "./store.js";\n',
};

describe("check-layers: one integration into another", () => {
  it("refuses an import of another integration's file", async () => {
    const root = project({
      ...tasks,
      "proxy/mirror.ts": 'import type { TaskStore } from "../extensions/tasks/store.js";\n',
    });
    const { code, output } = await check(root);
    expect(code).toBe(1);
    expect(output).toContain(
      "proxy/mirror.ts imports extensions/tasks/store.ts: an integration uses another only through its public index (src/extensions/tasks/index.ts)",
    );
  });

  it("takes an import of its public index, and a folder's own files", async () => {
    const root = project({
      ...tasks,
      "extensions/tasks/runtime.ts": 'import type { TaskStore } from "./store.js";\n',
      "proxy/mirror.ts": 'import type { TaskStore } from "../extensions/tasks/index.js";\n',
    });
    expect(await check(root)).toEqual({ code: 0, output: "layers: ok\n" });
  });

  it("holds the sub-entries of one folder apart: extensions/skills may not use extensions/tasks' files", async () => {
    const root = project({
      ...tasks,
      "extensions/skills/catalog.ts": 'import type { TaskStore } from "../tasks/store.js";\n',
    });
    const { code, output } = await check(root);
    expect(code).toBe(1);
    expect(output).toContain("extensions/skills/catalog.ts imports extensions/tasks/store.ts");
  });
});

describe("check-layers: file loops", () => {
  it("refuses two files that import each other, a type-only import included", async () => {
    const root = project({
      "proxy/mirror.ts": 'import type { Sync } from "./mirror-sync.js";\nexport interface Upstreams {}\n',
      "proxy/mirror-sync.ts": 'import type { Upstreams } from "./mirror.js";\nexport interface Sync {}\n',
    });
    const { code, output } = await check(root);
    expect(code).toBe(1);
    expect(output).toContain("files import each other: proxy/mirror-sync.ts, proxy/mirror.ts");
    expect(output).toContain("proxy/mirror.ts imports proxy/mirror-sync.ts");
  });

  it("lets the request engine's files refer to each other", async () => {
    const root = project({
      "protocol/engine/peer.ts": 'import type { Incoming } from "./incoming.js";\nexport class Peer {}\n',
      "protocol/engine/incoming.ts": 'import type { Peer } from "./peer.js";\nexport class Incoming {}\n',
    });
    const { code, output } = await check(root);
    expect(output).toContain("layers: ok");
    expect(code).toBe(0);
  });
});
