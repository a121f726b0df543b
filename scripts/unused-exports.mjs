#!/usr/bin/env node
/**
 * Lists the `export`s of src/ that nothing uses: no other file imports the name (src/, test/,
 * bench/, examples/, scripts/), and no public entry point (package.json's `exports`) reaches it
 * through its re-exports. Each such export is either internal (drop `export`: the file still uses
 * the name) or dead code (the file does not use it either: remove it).
 *   node scripts/unused-exports.mjs           (one line per export, and the count)
 *   node scripts/unused-exports.mjs --count   (the count alone)
 * It reads import lines, as scripts/check-layers.mjs does: `import("…")` and `import * as` count as
 * using every export of the file they name.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const SCANNED = ["src", "test", "bench", "examples", "scripts"];
const CODE = /\.(?:ts|tsx|mts|js|mjs)$/;

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules" || entry.name === "results") return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return CODE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** `mcpkit/…` → the src index it is built from. */
const entryFiles = new Map();
for (const [subpath, target] of Object.entries(pkg.exports)) {
  if (typeof target !== "object" || !target.default?.startsWith("./dist/")) continue;
  const source = join(ROOT, target.default.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));
  entryFiles.set(subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`, source);
}

function sourceOf(path) {
  for (const candidate of [path.replace(/\.js$/, ".ts"), path.replace(/\.js$/, ".tsx"), path, `${path}.ts`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  if (existsSync(join(path, "index.ts"))) return join(path, "index.ts");
  return undefined;
}

/** The src file an import specifier names, or undefined (a package, a file outside src). */
function resolveSpecifier(from, spec) {
  if (entryFiles.has(spec)) return entryFiles.get(spec);
  if (!spec.startsWith(".")) return undefined;
  let path = resolve(dirname(from), spec);
  const dist = join(ROOT, "dist");
  if (path.startsWith(`${dist}/`)) path = join(ROOT, "src", relative(dist, path));
  return sourceOf(path);
}

const DECLARATION =
  /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|class|const|let|var|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/gm;
const NAMED = /(import|export)\s+(type\s+)?\{([^}]*)\}\s*(?:from\s*["']([^"']+)["'])?/g;
const STAR = /export\s+(?:type\s+)?\*\s+(?:as\s+[\w$]+\s+)?from\s*["']([^"']+)["']/g;
const WHOLE =
  /import\s+(?:type\s+)?\*\s+as\s+[\w$]+\s+from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** `a`, `type b as c` → [[imported, local]]. */
function specifiers(list) {
  return list
    .split(",")
    .map((part) => part.trim().replace(/^type\s+/, ""))
    .filter(Boolean)
    .map((part) => {
      const [name, alias] = part.split(/\s+as\s+/);
      return [name.trim(), (alias ?? name).trim()];
    });
}

const srcFiles = new Set(files(join(ROOT, "src")));
const declared = new Map(); // file → Map(name → line)
const used = new Set(); // "file\0name"
const reexports = []; // { from: file, name, to: file, as }
const stars = []; // { from: file (re-exporter), to: file }
const key = (file, name) => `${file}\0${name}`;

for (const file of SCANNED.flatMap((dir) => files(join(ROOT, dir)))) {
  const text = readFileSync(file, "utf8");
  if (srcFiles.has(file)) {
    const names = new Map();
    for (const match of text.matchAll(DECLARATION))
      names.set(match[1], text.slice(0, match.index).split("\n").length);
    declared.set(file, names);
  }
  for (const match of text.matchAll(NAMED)) {
    const [, verb, , list, spec] = match;
    if (!spec) {
      // `export { a, b }` of the file's own names.
      if (verb === "export" && srcFiles.has(file))
        for (const [name, as] of specifiers(list))
          declared.get(file).set(as, text.slice(0, match.index).split("\n").length) &&
            name !== as &&
            reexports.push({ from: file, name: as, to: file, as: name });
      continue;
    }
    const target = resolveSpecifier(file, spec);
    if (!target) continue;
    for (const [name, as] of specifiers(list)) {
      if (verb === "import") used.add(key(target, name));
      else if (srcFiles.has(file)) {
        reexports.push({ from: file, name: as, to: target, as: name });
        declared.get(file).set(as, text.slice(0, match.index).split("\n").length);
      } else used.add(key(target, name));
    }
  }
  for (const match of text.matchAll(STAR)) {
    const target = resolveSpecifier(file, match[1]);
    if (target) stars.push({ from: file, to: target });
  }
  for (const match of text.matchAll(WHOLE)) {
    const target = resolveSpecifier(file, match[1] ?? match[2]);
    if (target) used.add(key(target, "*"));
  }
}

const isUsed = (file, name) => used.has(key(file, name)) || used.has(key(file, "*"));
for (const entry of entryFiles.values()) used.add(key(entry, "*"));

// What a used re-export or `export *` forwards is used in turn, until nothing changes.
for (let changed = true; changed; ) {
  changed = false;
  for (const { from, name, to, as } of reexports) {
    if (isUsed(from, name) && !isUsed(to, as)) {
      used.add(key(to, as));
      changed = true;
    }
  }
  for (const { from, to } of stars) {
    for (const name of declared.get(to)?.keys() ?? []) {
      if (isUsed(from, name) && !isUsed(to, name)) {
        used.add(key(to, name));
        changed = true;
      }
    }
    if (used.has(key(from, "*")) && !used.has(key(to, "*"))) {
      used.add(key(to, "*"));
      changed = true;
    }
  }
}

const unused = [];
for (const [file, names] of declared) {
  const text = readFileSync(file, "utf8");
  for (const [name, line] of names) {
    if (isUsed(file, name)) continue;
    const mentions = text.match(new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`, "g")).length;
    unused.push(
      `${relative(ROOT, file)}:${line} ${name}${mentions > 1 ? "" : "  (dead: not used in its file either)"}`,
    );
  }
}
unused.sort();
if (process.argv.includes("--count")) console.log(unused.length);
else {
  for (const line of unused) console.log(line);
  console.log(`${unused.length} exports nothing uses`);
}
