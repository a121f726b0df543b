/**
 * What `npm pack` puts in the tarball (the built dist/ must exist: `npm test` builds first): the
 * license, every entry point, and nothing a source map or declaration map points at but the
 * tarball lacks.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
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

  it("ships what each source map and declaration map points at", () => {
    const maps = [...files].filter((file) => file.endsWith(".map"));
    expect(maps.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const map of maps) {
      const { sources } = JSON.parse(readFileSync(join(root, map), "utf8")) as { sources: string[] };
      for (const source of sources) {
        const target = relative(root, join(root, dirname(map), source))
          .split("\\")
          .join("/");
        if (!files.has(target)) missing.push(`${map} → ${source}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("ships no tests, examples, benchmarks or build scripts", () => {
    const outside = [...files].filter((file) => !/^(dist|src)\//.test(file));
    expect(outside.sort()).toEqual(["CHANGELOG.md", "LICENSE", "README.md", "package.json"]);
  });

  it("runs nothing when installed: the build runs in a clone (prepare), not at install", () => {
    for (const hook of ["preinstall", "install", "postinstall"]) expect(pkg.scripts[hook]).toBeUndefined();
    expect(pkg.scripts.prepare).toBe("npm run build");
  });
});
