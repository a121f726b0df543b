// The referee (@modelcontextprotocol/conformance) and the Node >= 22 it needs, from the npm registry.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheDir, installOnce, readText } from "./cache.mjs";

const REFEREE_PACKAGE = "@modelcontextprotocol/conformance";
/** The locked referee install: conformance/referee/package.json and its package-lock.json. */
const LOCKED = resolve(dirname(fileURLToPath(import.meta.url)), "../../conformance/referee");
/** Node for the referee when the one running this is older than 22: the `node` package, exact. */
export const NODE22_VERSION = "22.23.3";

/** The referee version conformance/referee/package.json pins. */
export function lockedRefereeVersion() {
  return JSON.parse(readText(join(LOCKED, "package.json"))).dependencies[REFEREE_PACKAGE];
}

function nodeVersion(node) {
  return execFileSync(node, ["-p", "process.versions.node"], { encoding: "utf8" }).trim();
}

const major = (version) => Number(version.split(".")[0]);

/**
 * A Node >= 22 (`{ path, version }`): `$NODE22` when set, else this Node when it is new enough, else
 * the `node` package installed into the cache.
 */
export async function nodeForReferee(env = process.env) {
  if (env.NODE22) {
    if (!existsSync(env.NODE22)) throw new Error(`NODE22=${env.NODE22} does not exist`);
    const version = nodeVersion(env.NODE22);
    if (!(major(version) >= 22))
      throw new Error(`NODE22=${env.NODE22} is Node ${version}; the referee needs >= 22`);
    return { path: env.NODE22, version };
  }
  if (major(process.versions.node) >= 22) return { path: process.execPath, version: process.versions.node };
  const entry = await installOnce(cacheDir(env), `node-${NODE22_VERSION}`, {
    what: `node@${NODE22_VERSION}`,
    files: { "package.json": '{ "private": true }\n' },
    // The package's install script fetches the platform's binary, itself an npm package.
    npmArgs: ["install", `node@${NODE22_VERSION}`],
  });
  const node = join(entry, "node_modules", ".bin", process.platform === "win32" ? "node.cmd" : "node");
  if (!existsSync(node)) throw new Error(`node@${NODE22_VERSION} installed no ${node}`);
  return { path: node, version: nodeVersion(node) };
}

/**
 * The referee's entry script, version `$CONFORMANCE_VERSION` or the locked one. The locked version is
 * installed with `npm ci` from the lock file, so its dependencies are the same on every machine; the
 * cache entry's name carries the lock's hash, so a changed lock installs afresh.
 */
export async function refereeScript(env = process.env) {
  const locked = lockedRefereeVersion();
  const version = env.CONFORMANCE_VERSION || locked;
  let entry;
  if (version === locked) {
    const files = {
      "package.json": readText(join(LOCKED, "package.json")),
      "package-lock.json": readText(join(LOCKED, "package-lock.json")),
    };
    const hash = createHash("sha256").update(files["package-lock.json"]).digest("hex").slice(0, 12);
    entry = await installOnce(cacheDir(env), `referee-${version}-${hash}`, {
      what: `${REFEREE_PACKAGE}@${version} (locked)`,
      files,
      npmArgs: ["ci", "--ignore-scripts"],
    });
  } else {
    entry = await installOnce(cacheDir(env), `referee-${version}`, {
      what: `${REFEREE_PACKAGE}@${version}`,
      files: { "package.json": '{ "private": true }\n' },
      npmArgs: ["install", "--ignore-scripts", `${REFEREE_PACKAGE}@${version}`],
    });
  }
  const script = join(entry, "node_modules", REFEREE_PACKAGE, "dist", "index.js");
  if (!existsSync(script)) throw new Error(`the referee install has no ${script}`);
  return { script, version };
}
