/**
 * A second build of mcpkit, from a git ref, to measure side by side with the working tree's
 * (`--baseline-ref REF` of bench/run.mjs and bench/instructions.mjs): the ref's files are extracted
 * with `git archive` into a directory under the OS temp dir (never into the repository, whose
 * worktree list stays untouched), given this checkout's node_modules through a symlink, and built
 * there (`tsc -p tsconfig.build.json`, then `scripts/bundle.mjs` where the ref has it). The current
 * bench/ is copied over the ref's, so both builds run the very same bench scripts and only `dist/`
 * differs: `mcpkit/server` in a script under that directory resolves to that directory's package.
 * A build is kept, keyed by the commit, and reused by later runs. Each run gets its own directory
 * beside it (links to the build's `dist/` and `package.json`, its own copy of bench/, removed when
 * the run exits), so two runs of one ref never rewrite each other's scripts mid-measurement.
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** Runs a command, throwing with its output when it fails. */
function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 1 << 26, ...options });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim().slice(-2000);
    throw new Error(`${command} ${args.join(" ")} failed (${result.status ?? result.error}): ${output}`);
  }
  return result.stdout;
}

/**
 * Builds (or reuses the build of) `ref` and returns `{ root, commit, label }`: `root` is the
 * directory whose bench/impl/mcpkit scripts import that build; `label` is `mcpkit@<ref>`.
 */
export function baselineBuild(repoRoot, ref, log = (line) => process.stderr.write(`${line}\n`)) {
  if (!/^[\w./~^-]+$/.test(ref))
    throw new Error(`--baseline-ref takes a git ref, not ${JSON.stringify(ref)}`);
  let commit;
  try {
    commit = run("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd: repoRoot }).trim();
  } catch {
    throw new Error(`--baseline-ref ${ref}: no such commit in ${repoRoot}`);
  }
  const root = join(tmpdir(), `mcpkit-baseline-${commit.slice(0, 12)}`);
  const done = join(root, ".baseline-built");
  if (!existsSync(done)) {
    log(`baseline: building ${ref} (${commit.slice(0, 12)}) in ${root}`);
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    const archive = spawnSync("git", ["archive", "--format=tar", commit], {
      cwd: repoRoot,
      maxBuffer: 1 << 30,
    });
    if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr}`);
    run("tar", ["-x", "-C", root], { input: archive.stdout });
    linkModules(repoRoot, root);
    const tsc = join(repoRoot, "node_modules", ".bin", "tsc");
    run(tsc, ["-p", "tsconfig.build.json"], { cwd: root });
    if (existsSync(join(root, "scripts", "bundle.mjs")))
      run(process.execPath, [join("scripts", "bundle.mjs")], { cwd: root });
    writeFileSync(done, `${commit}\n`);
  }
  // A kept build may link the node_modules of a checkout since removed.
  linkModules(repoRoot, root);
  return { root: runDirectory(repoRoot, root), commit, label: `mcpkit@${ref}` };
}

/**
 * This run's view of the build: its `dist/` and `package.json` linked (so the package resolves to
 * the build, whose own node_modules link serves `dist/`'s imports), and this checkout's bench/,
 * copied, since the scripts measured are always this checkout's and only dist/ differs.
 */
function runDirectory(repoRoot, root) {
  const run = mkdtempSync(`${root}-run-`);
  process.on("exit", () => rmSync(run, { recursive: true, force: true }));
  for (const name of ["dist", "package.json"]) symlinkSync(join(root, name), join(run, name));
  symlinkSync(join(repoRoot, "node_modules"), join(run, "node_modules"), "dir");
  cpSync(join(repoRoot, "bench"), join(run, "bench"), {
    recursive: true,
    filter: (source) => !resolve(source).startsWith(resolve(repoRoot, "bench", "results")),
  });
  return run;
}

/** Gives the build this checkout's node_modules, unless it already has them. */
function linkModules(repoRoot, root) {
  const target = join(repoRoot, "node_modules");
  const link = join(root, "node_modules");
  try {
    if (readlinkSync(link) === target) return;
  } catch {}
  rmSync(link, { force: true });
  symlinkSync(target, link, "dir");
}
