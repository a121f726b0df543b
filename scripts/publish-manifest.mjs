#!/usr/bin/env node
/**
 * `npm pack` / `npm publish` run `prepack`, which builds and then calls `strip`: package.json loses
 * what only a clone of the repository uses (scripts, devDependencies, allowScripts), so a consumer's
 * npm sees no scripts to vet and no dev tooling. `postpack` calls `restore`. The repository's
 * manifest waits in `package.json.repo` meanwhile; `strip` refuses to run while it exists, so a pack
 * that died half-way never loses it.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const REPOSITORY_ONLY = ["scripts", "devDependencies", "allowScripts"];
const dir = process.cwd();
const manifest = join(dir, "package.json");
const saved = join(dir, "package.json.repo");

const mode = process.argv[2];
if (mode === "strip") {
  if (existsSync(saved)) {
    console.error(
      `publish-manifest: ${saved} exists (an earlier pack did not finish): run "node scripts/publish-manifest.mjs restore" first`,
    );
    process.exit(1);
  }
  const text = readFileSync(manifest, "utf8");
  const pkg = JSON.parse(text);
  for (const field of REPOSITORY_ONLY) delete pkg[field];
  renameSync(manifest, saved);
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (mode === "restore") {
  if (existsSync(saved)) renameSync(saved, manifest);
} else {
  console.error("usage: publish-manifest.mjs strip|restore");
  process.exit(2);
}
