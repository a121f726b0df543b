/**
 * What `npm pack` puts in the tarball (the built dist/ must exist: `npm test` builds first): the
 * license, every entry point, source maps that carry their sources, and a manifest without what
 * only a clone of the repository uses.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

let files: Set<string>;

beforeAll(async () => {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const { stdout } = await run(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root });
  const [packed] = JSON.parse(stdout) as { files: { path: string }[] }[];
  files = new Set(packed!.files.map((file) => file.path));
});

describe("the npm package", () => {
  it("ships the license, the readme, the changelog and every entry point", () => {
    for (const file of ["LICENSE", "README.md", "CHANGELOG.md", "package.json"])
      expect(files).toContain(file);
    expect(readFileSync(join(root, "LICENSE"), "utf8")).toMatch(/^MIT License/);
    expect(pkg.license).toBe("MIT");
    const targets = [
      ...Object.values(pkg.bin as Record<string, string>),
      ...Object.values(pkg.exports as Record<string, string | Record<string, string>>).flatMap((target) =>
        typeof target === "string" ? [target] : Object.values(target),
      ),
    ];
    for (const target of targets) expect(files).toContain(posix.normalize(target));
  });

  it("ships source maps that carry the source they map to, and no src/", () => {
    const maps = [...files].filter((file) => file.endsWith(".map"));
    expect(maps.length).toBeGreaterThan(0);
    const empty: string[] = [];
    for (const map of maps) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(join(root, map), "utf8")) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      sources.forEach((source, i) => {
        if (typeof sourcesContent?.[i] !== "string") empty.push(`${map} → ${source}`);
      });
    }
    expect(empty).toEqual([]);
    expect([...files].filter((file) => file.startsWith("src/"))).toEqual([]);
  });

  it("ships the guides the README links to", () => {
    const linked = [...readFileSync(join(root, "README.md"), "utf8").matchAll(/\]\((docs\/[^)#]+\.md)/g)].map(
      ([, path]) => path!,
    );
    expect(linked.length).toBeGreaterThan(0);
    expect(linked.filter((path) => !files.has(path))).toEqual([]);
  });

  it("ships no tests, examples, benchmarks or build scripts", () => {
    // The guides ship too: the README links to them.
    const outside = [...files].filter((file) => !file.startsWith("dist/") && !file.startsWith("docs/"));
    expect(outside.sort()).toEqual(["CHANGELOG.md", "LICENSE", "README.md", "package.json"]);
  });

  it("runs nothing when installed: the build runs when packing (prepack), not at install", () => {
    for (const hook of ["preinstall", "install", "postinstall", "prepare"])
      expect(pkg.scripts[hook]).toBeUndefined();
    expect(pkg.scripts.prepack).toBe("npm run build && node scripts/publish-manifest.mjs strip");
    expect(pkg.scripts.postpack).toBe("node scripts/publish-manifest.mjs restore");
  });

  it("publishes a manifest without scripts, devDependencies or allowScripts, and restores the repository's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpkit-manifest-"));
    try {
      const original = readFileSync(join(root, "package.json"), "utf8");
      writeFileSync(join(dir, "package.json"), original);
      const script = join(root, "scripts/publish-manifest.mjs");
      await run(process.execPath, [script, "strip"], { cwd: dir });
      const published = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      for (const field of ["scripts", "devDependencies", "allowScripts"])
        expect(published).not.toHaveProperty(field);
      expect(published).toMatchObject({
        name: "mcpkit",
        exports: pkg.exports,
        dependencies: pkg.dependencies,
      });
      // A second strip before the restore would lose the repository's manifest: it refuses.
      await expect(run(process.execPath, [script, "strip"], { cwd: dir })).rejects.toThrow(/restore/);
      await run(process.execPath, [script, "restore"], { cwd: dir });
      expect(readFileSync(join(dir, "package.json"), "utf8")).toBe(original);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
