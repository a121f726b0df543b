// One run of the referee against a server URL or a client command: installs what it needs, starts
// the server under test when asked, runs the referee under a wall-clock limit, and reads the results.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tail } from "./cache.mjs";
import { portOpen, runGroup, startGroup, stopGroup, waitForPort } from "./processes.mjs";
import { formatSummary, summarise } from "./summary.mjs";
import { nodeForReferee, refereeScript } from "./tools.mjs";

let runs = 0;

/** A fresh folder for a run's logs and results, under `$TMPDIR/mcp-conformance-runs/`. */
function outputDir() {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
  const dir = join(tmpdir(), "mcp-conformance-runs", `${stamp}-${process.pid}-${++runs}`);
  mkdirSync(join(dir, "results"), { recursive: true });
  return dir;
}

/** The referee's command line, as the runner has always built it. */
function refereeArgs(
  { mode, target, requirements, specVersion, scenario, suite, scenarioTimeoutMs },
  results,
) {
  const args = [mode];
  if (mode === "server") args.push("--url", target);
  else args.push("--command", target, "--timeout", String(scenarioTimeoutMs));
  if (scenario) args.push("--scenario", scenario);
  if (suite) args.push("--suite", suite);
  else if (!scenario && !requirements) args.push("--suite", "all");
  if (specVersion) args.push("--spec-version", specVersion);
  if (requirements) args.push("--requirements", requirements);
  args.push("-o", results);
  return args;
}

/** Starts `start` with PORT set to the URL's port and waits until that port accepts connections. */
async function startServer(start, url, { cwd, logFile, readyTimeoutS }) {
  const { hostname, port } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, "");
  if (!port) throw new Error(`starting a server needs an explicit port in ${url}`);
  if (await portOpen(host, Number(port))) {
    throw new Error(`port ${port} is already in use; stop that process or use another port`);
  }
  console.error(`conformance: starting server: ${start} (PORT=${port}, log: ${logFile})`);
  const server = startGroup(start, undefined, { cwd, env: { ...process.env, PORT: port }, logFile });
  try {
    await waitForPort(host, Number(port), { exited: server.exited, timeoutS: readyTimeoutS });
  } catch (error) {
    await stopGroup(server.child.pid);
    const log = existsSync(logFile) ? tail(readFileSync(logFile, "utf8"), 20) : "";
    throw new Error(`${error.message}${log ? `; its log ends:\n${log}` : ""}`);
  }
  return server;
}

/**
 * Runs the referee once and prints its per-scenario summary. Returns the scenarios (see
 * `summarise`). Options: `mode` "server" | "client", `target` (URL or command), one of
 * `requirements` (a frozen requirement set), `scenario`, `suite` and `specVersion`, `start` (server mode: a
 * shell line that serves `target`), and the limits `totalTimeoutS` (1200), `readyTimeoutS` (30),
 * `scenarioTimeoutMs` (client mode, 30000).
 */
export async function runReferee(options) {
  const { mode, target, start, cwd = process.cwd() } = options;
  const totalTimeoutS = options.totalTimeoutS ?? 1200;
  const node = await nodeForReferee();
  const referee = await refereeScript();
  const dir = outputDir();
  const results = join(dir, "results");
  const logFile = join(dir, "referee.log");
  const args = refereeArgs({ scenarioTimeoutMs: 30_000, ...options }, results);

  const server = start
    ? await startServer(start, target, {
        cwd,
        logFile: join(dir, "server.log"),
        readyTimeoutS: options.readyTimeoutS ?? 30,
      })
    : undefined;
  const began = Date.now();
  let outcome;
  try {
    console.error(`conformance: referee ${referee.version} (node ${node.version}): ${args.join(" ")}`);
    outcome = await runGroup(node.path, [referee.script, ...args], { cwd, logFile, timeoutS: totalTimeoutS });
  } finally {
    if (server) await stopGroup(server.child.pid);
  }
  const seconds = Math.round((Date.now() - began) / 1000);
  const what = [
    options.requirements && `requirements ${options.requirements}`,
    options.scenario && `scenario ${options.scenario}`,
    options.specVersion && `spec ${options.specVersion}`,
  ].filter(Boolean);
  console.log(
    `== ${mode}: ${target} | referee ${referee.version} | ${what.join(" ")} | ${seconds}s | ` +
      `${outcome.timedOut ? "referee timed out" : `referee exit ${outcome.code}`}`,
  );
  console.log(`== log: ${logFile}`);
  const log = existsSync(logFile) ? readFileSync(logFile, "utf8") : "";
  const scenarios = summarise({ resultsDir: results, log, mode, ...outcome, timeoutS: totalTimeoutS });
  console.log(formatSummary(scenarios));
  return scenarios;
}
