#!/usr/bin/env node
/**
 * `npm run docs`: the API reference, from the TSDoc of every public entry point (package.json's
 * `exports`), as HTML in `build/docs/`. Each module is named by its import path (`mcpkit/server`).
 * TypeDoc needs TypeScript's compiler API, which TypeScript 7 does not have; it runs on the
 * TypeScript 6 installed beside it in this folder. Type errors are `npm run typecheck`'s job, so
 * TypeDoc skips that check; warnings (a public signature naming a type no entry point exports)
 * are printed and do not fail the build.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Application, Converter, ReflectionKind } from "typedoc";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

/** `src/…/index.ts` → the import path it is published as (`mcpkit/transports/http/server`). */
const importPaths = new Map();
for (const [subpath, target] of Object.entries(pkg.exports)) {
  if (typeof target !== "object" || !target.default?.startsWith("./dist/")) continue;
  const source = target.default.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts");
  importPaths.set(join(ROOT, source), subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`);
}

const app = await Application.bootstrap({
  name: pkg.name,
  entryPoints: [...importPaths.keys()],
  tsconfig: join(ROOT, "tsconfig.build.json"),
  readme: join(ROOT, "README.md"),
  out: join(ROOT, "build/docs"),
  includeVersion: true,
  excludeInternal: true,
  excludePrivate: true,
  skipErrorChecking: true,
  sort: ["kind", "alphabetical"],
  // Type-level machinery that computes a URI template's variables: named in a signature, not API.
  intentionallyNotExported: ["Entries", "Flatten"],
});

app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
  for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
    const file = module.sources?.[0]?.fullFileName;
    const name = file && importPaths.get(resolve(file));
    if (name) module.name = name;
  }
});

const project = await app.convert();
if (!project) process.exit(1);
app.validate(project);
await app.generateDocs(project, join(ROOT, "build/docs"));
if (app.logger.hasErrors()) process.exit(1);
console.log(`API reference: ${join("build/docs", "index.html")}`);
