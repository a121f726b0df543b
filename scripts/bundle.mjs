#!/usr/bin/env node
/**
 * Bundles dist/'s JavaScript with esbuild: one file per public entry point (package.json's
 * `exports` and `bin`), at the path `exports` names, with the code entries share split into
 * `dist/_chunks/`, so each module exists once (one `McpError` class, one process reaper) whatever
 * entries a program imports. Node 20 loads a few bundled files in a fraction of the time it takes
 * for the ~45 small modules a server is written as. Dependencies stay external. Type declarations
 * come from `tsc -p tsconfig.build.json`, which emits only those. The source maps carry the source
 * they point at, so a stack trace maps to src/ lines without the package shipping src/.
 */
import { readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

/** `./dist/server/index.js` → `src/server/index.ts`. */
function sourceOf(distPath) {
  return join(ROOT, distPath.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));
}

const entries = new Set(Object.values(pkg.bin));
for (const target of Object.values(pkg.exports)) {
  if (typeof target === "object" && target.default?.startsWith("./dist/")) entries.add(target.default);
}

rmSync(join(ROOT, "dist", "_chunks"), { recursive: true, force: true });
await build({
  entryPoints: [...entries].map(sourceOf),
  outdir: join(ROOT, "dist"),
  outbase: join(ROOT, "src"),
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: true,
  sourcesContent: true,
  // Classes keep their names (an McpError prints as McpError, not as a renamed _McpError).
  keepNames: true,
  chunkNames: "_chunks/[name]-[hash]",
  logLevel: "warning",
});
