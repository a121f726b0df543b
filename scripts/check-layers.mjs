#!/usr/bin/env node
// Checks the import rule of DESIGN's layers from the import lines of src/: a file imports only from
// its own layer or the ones below, the two roles never import each other, and no two folders
// import each other, directly or round a longer loop (type-only imports included), nor do two
// files outside the request engine. A folder's index.ts only re-exports what lies under it, so it
// takes no part in the folder loop check. An integration
// uses another only through a public index (an entry of package.json's `exports`), never its files.
//   node scripts/check-layers.mjs [root]     (root holds src/ and package.json; exit 1 and one line per violation)
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), ".."));
const src = join(root, "src");

/** Top-level folders of src/ by layer, lowest first. */
const LAYERS = [
  ["base", ["jsonrpc", "util", "version.ts"]],
  ["protocol", ["protocol"]],
  ["transports", ["transports"]],
  ["roles", ["server", "client"]],
  ["integrations", ["agent", "langchain", "ai-sdk", "proxy", "servers", "extensions", "redis", "otel"]],
  ["apps", ["cli"]],
];
const rankOf = new Map(LAYERS.flatMap(([, tops], rank) => tops.map((top) => [top, rank])));
const ROLES = new Set(["server", "client"]);
const INTEGRATIONS = rankOf.get("agent");

/** The folders of src/ whose index.ts is a public entry (`./extensions/tasks` → `extensions/tasks`). */
const entries = Object.values(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).exports ?? {})
  .map((entry) => (typeof entry === "string" ? entry : entry.default))
  .filter((target) => typeof target === "string" && /^\.\/dist\/.*index\.js$/.test(target))
  .map((target) => dirname(target.slice("./dist/".length)));
/** The integration a file belongs to: the deepest public entry folder holding it, else its top folder. */
function integrationOf(path) {
  const at = relative(src, path);
  const holding = entries.filter((entry) => at.startsWith(`${entry}/`));
  return holding.sort((a, b) => b.length - a.length)[0] ?? top(path);
}

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^;"']*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function importsOf(file) {
  const text = readFileSync(file, "utf8");
  const found = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2];
    if (spec.startsWith(".")) found.push(resolve(dirname(file), spec).replace(/\.js$/, ".ts"));
  }
  return found;
}

const top = (path) => relative(src, path).split("/")[0];
const folder = (path) => relative(src, dirname(path)) || ".";
const problems = [];
const edges = new Map();
const fileEdges = new Map();
const ENGINE = join(src, "protocol/engine");
const inEngine = (path) => dirname(path) === ENGINE;

for (const file of files(src)) {
  const from = top(file);
  const fromRank = rankOf.get(from);
  const isRootEntry = folder(file) === "." && from !== "version.ts";
  if (fromRank === undefined && !isRootEntry)
    problems.push(`${relative(src, file)}: src/${from} belongs to no layer`);
  for (const target of importsOf(file)) {
    const to = top(target);
    const toRank = rankOf.get(to);
    const where = `${relative(src, file)} imports ${relative(src, target)}`;
    if (toRank === undefined) problems.push(`${where}: src/${to} belongs to no layer`);
    else if (!isRootEntry && fromRank !== undefined && toRank > fromRank)
      problems.push(`${where}: ${LAYERS[fromRank][0]} may not import ${LAYERS[toRank][0]}`);
    else if (ROLES.has(from) && ROLES.has(to) && from !== to)
      problems.push(`${where}: one role may not import the other`);
    else if (fromRank === INTEGRATIONS && toRank === INTEGRATIONS) {
      const into = integrationOf(target);
      if (integrationOf(file) !== into && target !== join(src, into, "index.ts"))
        problems.push(
          `${where}: an integration uses another only through its public index (src/${into}/index.ts)`,
        );
    }
    if (!(inEngine(file) && inEngine(target))) {
      const a = relative(src, file);
      if (!fileEdges.has(a)) fileEdges.set(a, new Map());
      fileEdges.get(a).set(relative(src, target), where);
    }
    if (file.endsWith("/index.ts") || isRootEntry) continue;
    const a = folder(file);
    const b = folder(target);
    if (a !== b) {
      if (!edges.has(a)) edges.set(a, new Map());
      if (!edges.get(a).has(b)) edges.get(a).set(b, where);
    }
  }
}

/** The loops of a graph (Tarjan's strongly connected components of two nodes or more). */
function loops(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  function visit(node) {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found.map((component) => {
    const inside = new Set(component);
    const links = component.flatMap((a) =>
      [...(graph.get(a) ?? [])].filter(([b]) => inside.has(b)).map(([, where]) => `    ${where}`),
    );
    return `${component.join(", ")}\n${links.join("\n")}`;
  });
}

for (const loop of loops(edges)) problems.push(`folders import each other: ${loop}`);
// File loops, type-only imports included: a loop makes the order modules load in matter. The request
// engine's files are one concept spread over several, and may refer to each other.
for (const loop of loops(fileEdges)) problems.push(`files import each other: ${loop}`);

for (const problem of problems) console.error(`layers: ${problem}`);
console.log(`layers: ${problems.length === 0 ? "ok" : `${problems.length} violation(s)`}`);
process.exit(problems.length === 0 ? 0 : 1);
