#!/usr/bin/env node
/**
 * The benchmark harness: every scenario for the floor, mcpkit, SDK v1 and SDK v2 (both
 * eras), in one run, interleaved, each measurement in fresh processes. See bench/README.md.
 *
 *   node bench/run.mjs                      the full run (5 repetitions)
 *   node bench/run.mjs --quick              a smoke run with tiny counts (2 repetitions)
 *   options: --reps N  --scenarios a,b  --impls floor,mcpkit,sdk-v2@modern  --out PREFIX
 *            --cpu-prof server|client|both  --scale N  --pin auto|same|split|none
 *            --timeout SECONDS  --baseline-ref REF  --jobs N  --list
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { baselineBuild } from "./lib/baseline.mjs";
import { instructionRuns } from "./lib/instructions-suite.mjs";
import { writeReports } from "./lib/report.mjs";
import { allVariants, SCENARIOS, skipReason } from "./lib/scenarios.mjs";

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, "..");

function parseArgs(argv) {
  const options = { quick: false, reps: undefined, scenarios: undefined, impls: undefined, out: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === "--quick") options.quick = true;
    else if (arg === "--reps") options.reps = Number(value());
    else if (arg === "--scenarios" || arg === "--only") options.scenarios = value().split(",");
    else if (arg === "--impls") options.impls = value().split(",");
    else if (arg === "--out") options.out = value();
    else if (arg === "--cpu-prof") options.cpuProf = value();
    else if (arg === "--timeout") options.timeout = Number(value());
    else if (arg === "--scale") options.scale = Number(value());
    else if (arg === "--pin") options.pin = value();
    else if (arg === "--baseline-ref") options.baselineRef = value();
    else if (arg === "--jobs") options.jobs = Number(value());
    else if (arg === "--list") options.list = true;
    else if (arg === "--help" || arg === "-h") options.help = true;
    else throw new Error(`unknown option ${arg} (try --help)`);
  }
  return options;
}

/** Spawns `node args…`, keeping stdout lines and the tail of stderr. */
function startNode(args, { onLine, cpu } = {}) {
  const [command, argv] = pinned(cpu, process.execPath, args);
  const child = spawn(command, argv, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const lines = [];
  let partial = "";
  let stderr = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    const parts = (partial + chunk).split("\n");
    partial = parts.pop();
    for (const line of parts) {
      lines.push(line);
      onLine?.(line);
    }
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise((resolveExit) =>
    child.on("close", (code, signal) => {
      if (partial) lines.push(partial);
      resolveExit({ code, signal });
    }),
  );
  return { child, lines, exited, stderr: () => stderr };
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took more than ${ms / 1000} s`)), ms);
    }),
  ]);
}

async function stop(proc) {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill("SIGTERM");
  const killer = setTimeout(() => proc.child.kill("SIGKILL"), 3000);
  await proc.exited;
  clearTimeout(killer);
}

/** Node flags of the server (GC on demand for memory marks; the CPU profiler when asked). */
function serverFlags(options, profileDir) {
  const flags = ["--expose-gc"];
  if (profileDir && (options.cpuProf === "server" || options.cpuProf === "both")) {
    flags.push("--cpu-prof", `--cpu-prof-dir=${join(profileDir, "server")}`);
  }
  return flags;
}

function clientFlags(options, profileDir) {
  if (profileDir && (options.cpuProf === "client" || options.cpuProf === "both")) {
    return ["--cpu-prof", `--cpu-prof-dir=${join(profileDir, "client")}`];
  }
  return [];
}

function hasTaskset() {
  return spawnSync("taskset", ["-c", "0", "true"], { stdio: "ignore" }).status === 0;
}

/** `command args…`, run on one CPU (`taskset -c`) when `cpu` is set (`--pin`). */
function pinned(cpu, command, args) {
  return cpu === undefined ? [command, args] : ["taskset", ["-c", String(cpu), command, ...args]];
}

/**
 * The CPUs of the server and the client (`--pin`): `split` puts them on two, `same` on one, `none`
 * leaves it to the scheduler, and `auto` (the default) pins one-at-a-time scenarios to one CPU and
 * concurrent ones to two. On a 2-core machine whether a ping-pong lands on one core or two changes
 * a round trip 3–4× (waking an idle core costs more than the call), which swamps what the
 * libraries differ by; pinned, the runs are repeatable.
 */
function cpusOf(options, scenario) {
  let pin = options.pin ?? "auto";
  if (pin === "auto") pin = (scenario.concurrency ?? 1) > 1 ? "split" : "same";
  if (pin === "split") return { server: 1, client: 0 };
  if (pin === "same") return { server: 0, client: 0 };
  return { server: undefined, client: undefined };
}

/** `--scale`: longer (or shorter) runs of the throughput scenarios (calls and warm-up), for profiling. */
function scaled(count, scale = 1) {
  return count === undefined ? undefined : Math.max(1, Math.round(count * scale));
}

/** One measurement: fresh server (HTTP) and client processes; resolves with the client's metrics. */
async function measure(scenario, variant, options, profileDir) {
  const mode = options.quick ? "quick" : "full";
  const pick = (value) => (value && typeof value === "object" ? value[mode] : value);
  const serverConfig = {
    era: variant.era,
    tools: pick(scenario.tools) ?? 0,
    measureMemory: scenario.measureMemory === true,
    schema: scenario.schema ?? "zod",
    tasks: scenario.kind === "tasks",
  };
  const script = (name) => join(variant.root ?? ROOT, "bench", "impl", variant.impl, name);
  const timeout = (options.timeout ?? (options.quick ? 90 : 300)) * 1000;
  const cpus = options.taskset ? cpusOf(options, scenario) : {};
  let server;
  try {
    let target;
    if (scenario.transport === "http") {
      let announced;
      const url = new Promise((resolveUrl) => {
        announced = resolveUrl;
      });
      server = startNode(
        [...serverFlags(options, profileDir), script("server-http.mjs"), JSON.stringify(serverConfig)],
        {
          cpu: cpus.server,
          onLine: (line) => {
            try {
              const parsed = JSON.parse(line);
              if (parsed.url) announced(parsed.url);
            } catch {
              // not the announcement
            }
          },
        },
      );
      const early = server.exited.then(({ code }) => {
        throw new Error(`the server exited (${code}) before listening: ${server.stderr().slice(-1000)}`);
      });
      target = {
        transport: "http",
        url: await withTimeout(Promise.race([url, early]), 30_000, "server start"),
      };
    } else {
      const [command, args] = pinned(cpus.server, process.execPath, [
        ...serverFlags(options, profileDir),
        script("server-stdio.mjs"),
        JSON.stringify(serverConfig),
      ]);
      target = { transport: "stdio", command, args };
    }
    const clientConfig = {
      scenario: scenario.kind,
      era: variant.era,
      target,
      calls: scaled(pick(scenario.calls), options.scale),
      warmup: scenario.calls ? scaled(pick(scenario.warmup), options.scale) : (pick(scenario.warmup) ?? 0),
      concurrency: scenario.concurrency ?? 1,
      repeats: pick(scenario.repeats) ?? 1,
      sessions: pick(scenario.sessions),
      expectTools: (pick(scenario.tools) ?? 0) + 3,
    };
    const clientScript =
      scenario.kind === "sessions" ? join(BENCH, "lib", "session-client.mjs") : script("client.mjs");
    const client = startNode(
      [...clientFlags(options, profileDir), clientScript, JSON.stringify(clientConfig)],
      {
        cpu: cpus.client,
      },
    );
    let exit;
    try {
      exit = await withTimeout(client.exited, timeout, "the client");
    } catch (error) {
      client.child.kill("SIGKILL");
      throw error;
    }
    const line = client.lines.findLast((l) => l.startsWith("{"));
    const result = line ? JSON.parse(line) : undefined;
    if (!result)
      throw new Error(`the client printed no result (exit ${exit.code}): ${client.stderr().slice(-1500)}`);
    if (!result.ok) throw new Error(result.error);
    return result.metrics;
  } finally {
    if (server) await stop(server);
  }
}

function format(value, digits = 1) {
  return Number.isFinite(value)
    ? value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : "–";
}

function gitInfo() {
  const run = (args) =>
    new Promise((resolveRun) => {
      const child = spawn("git", args, { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] });
      let out = "";
      child.stdout.on("data", (chunk) => {
        out += chunk;
      });
      child.on("close", () => resolveRun(out.trim()));
      child.on("error", () => resolveRun(""));
    });
  return Promise.all([run(["rev-parse", "--short", "HEAD"]), run(["status", "--porcelain", "src"])]).then(
    ([commit, dirty]) => ({ commit, srcChangedFiles: dirty ? dirty.split("\n").length : 0 }),
  );
}

function versionOf(pkg) {
  try {
    return JSON.parse(readFileSync(join(ROOT, "node_modules", pkg, "package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
}

function usage() {
  process.stdout.write(`usage: node bench/run.mjs [--quick] [--reps N] [--scenarios ${SCENARIOS.map((s) => s.id).join(",")}]
       [--impls ${allVariants()
         .map((v) => v.id)
         .join(",")}]
       [--out PREFIX] [--cpu-prof server|client|both] [--scale N] [--pin auto|same|split|none] [--timeout SECONDS]
       [--baseline-ref REF] [--jobs N] [--list]
`);
}

/**
 * `--baseline-ref REF`: mcpkit built from that git ref (bench/lib/baseline.mjs), as `mcpkit@REF`
 * (and `mcpkit@REF@modern`), beside each mcpkit variant of the run, with the same bench scripts.
 */
function baselineVariants(ref, variants) {
  const build = baselineBuild(ROOT, ref);
  return variants
    .filter((v) => v.impl === "mcpkit" && !v.root)
    .map((v) => ({
      ...v,
      id: v.era === "legacy" ? build.label : `${build.label}@${v.era}`,
      label: `${v.label.replace(/^mcpkit/, build.label)}`,
      root: build.root,
      commit: build.commit,
    }));
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.help) return usage();
  // `instructions` (callgrind counts, bench/lib/instructions-suite.mjs) runs once, after the timed scenarios.
  const wanted = options.scenarios ?? [...SCENARIOS.map((s) => s.id), "instructions"];
  const countInstructions = wanted.includes("instructions");
  const scenarios = wanted
    .filter((id) => id !== "instructions")
    .map((id) => {
      const found = SCENARIOS.find((s) => s.id === id);
      if (!found)
        throw new Error(
          `unknown scenario ${id}; known: ${SCENARIOS.map((s) => s.id).join(", ")}, instructions`,
        );
      return found;
    });
  const known = allVariants();
  const variants = options.impls
    ? options.impls.map((id) => {
        const found = known.find((v) => v.id === id);
        if (!found)
          throw new Error(`unknown implementation ${id}; known: ${known.map((v) => v.id).join(", ")}`);
        return found;
      })
    : known;
  if (!variants.some((v) => v.floor)) variants.unshift(known.find((v) => v.floor));
  if (options.baselineRef) variants.push(...baselineVariants(options.baselineRef, variants));
  if (options.list) {
    for (const s of scenarios) process.stdout.write(`${s.id}\t${s.title}\n`);
    if (countInstructions) process.stdout.write("instructions\tinstructions per call under callgrind\n");
    for (const v of variants) process.stdout.write(`${v.id}\t${v.label}\n`);
    return;
  }
  if (!existsSync(join(ROOT, "dist", "server", "index.js"))) {
    throw new Error("mcpkit is not built: run `npm run build` first (the bench imports mcpkit from dist/)");
  }
  if (!["auto", "same", "split", "none", undefined].includes(options.pin)) {
    throw new Error(`--pin takes auto, same, split or none, not ${options.pin}`);
  }
  const jobs = options.jobs ?? 1;
  if (!Number.isInteger(jobs) || jobs < 1)
    throw new Error(`--jobs takes a whole number ≥ 1, not ${options.jobs}`);
  // Pinning needs taskset (util-linux) and two CPUs; without them the scheduler decides.
  options.taskset = options.pin !== "none" && cpus().length >= 2 && hasTaskset();
  const reps = options.reps ?? (options.quick ? 2 : 5);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19);
  const outPrefix = options.out ?? join(BENCH, "results", `${stamp}${options.quick ? "-quick" : ""}`);
  const profileDir = options.cpuProf ? `${outPrefix}-profiles` : undefined;
  mkdirSync(dirname(outPrefix), { recursive: true });

  const meta = {
    date: new Date().toISOString(),
    mode: options.quick ? "quick" : "full",
    repetitions: reps,
    scale: options.scale ?? 1,
    pin: options.taskset ? (options.pin ?? "auto") : "none",
    jobs,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: `${cpus()[0]?.model ?? "?"} × ${cpus().length}`,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
    git: await gitInfo(),
    distBuilt: statSync(join(ROOT, "dist", "server", "index.js")).mtime.toISOString(),
    versions: {
      "@modelcontextprotocol/sdk": versionOf("@modelcontextprotocol/sdk"),
      "@modelcontextprotocol/server": versionOf("@modelcontextprotocol/server"),
      "@modelcontextprotocol/client": versionOf("@modelcontextprotocol/client"),
      zod: versionOf("zod"),
    },
    skipped: [],
  };
  const runs = [];
  const started = performance.now();
  process.stderr.write(
    `bench: ${meta.mode}, ${reps} repetitions × ${scenarios.length} scenarios × ${variants.length} implementations (interleaved)${countInstructions ? `, then instruction counts${jobs > 1 ? `, ${jobs} variants at a time` : ""}` : ""}\n`,
  );
  for (let rep = 0; rep < reps; rep++) {
    for (const scenario of scenarios) {
      const runnable = variants.filter((v) => {
        const reason = skipReason(scenario, v);
        if (reason && rep === 0) meta.skipped.push({ scenario: scenario.id, variant: v.id, reason });
        return !reason;
      });
      // Round-robin: each repetition starts one implementation further along.
      const order = runnable.map((_, i) => runnable[(i + rep) % runnable.length]);
      for (const [position, variant] of order.entries()) {
        const t0 = performance.now();
        const run = { scenario: scenario.id, variant: variant.id, rep: rep + 1, position: position + 1 };
        const dir = profileDir && join(profileDir, `${scenario.id}-${variant.id}-${rep + 1}`);
        try {
          run.metrics = await measure(scenario, variant, options, dir);
          run.ok = true;
        } catch (error) {
          run.ok = false;
          run.error = error instanceof Error ? error.message : String(error);
        }
        run.wallMs = performance.now() - t0;
        runs.push(run);
        const main = scenario.metrics[0];
        const shown = run.ok
          ? `${format(run.metrics[main.key], main.digits)} ${main.label}`
          : `FAILED: ${run.error.split("\n")[0].slice(0, 300)}`;
        process.stderr.write(
          `[${rep + 1}/${reps}] ${scenario.id.padEnd(13)} ${variant.id.padEnd(14)} ${shown} (${format(run.wallMs / 1000, 1)} s)\n`,
        );
      }
    }
  }
  if (countInstructions) {
    const counted = await instructionRuns(variants, {
      quick: options.quick,
      log: (line) => process.stderr.write(`${line}\n`),
      jobs,
    });
    if (counted.skipped) {
      meta.instructionsSkipped = counted.skipped;
      process.stderr.write(`bench: ${counted.skipped}\n`);
    }
    runs.push(...counted.runs);
    variants.push(...counted.variants);
  }
  meta.loadAverageAtEnd = loadavg().map((l) => Math.round(l * 100) / 100);
  meta.distBuiltAtEnd = statSync(join(ROOT, "dist", "server", "index.js")).mtime.toISOString();
  if (options.baselineRef)
    meta.baseline = { ref: options.baselineRef, commit: variants.find((v) => v.root)?.commit };
  meta.durationSec = Math.round((performance.now() - started) / 1000);
  const files = writeReports(outPrefix, {
    meta,
    scenarios,
    variants,
    runs,
    quick: options.quick,
    instructions: countInstructions,
  });
  process.stderr.write(`bench: done in ${meta.durationSec} s; wrote ${files.join(", ")}\n`);
  if (profileDir) process.stderr.write(`bench: CPU profiles in ${profileDir}\n`);
  if (runs.some((r) => !r.ok)) process.exitCode = 1;
}

main().catch((error) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
