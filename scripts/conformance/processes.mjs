// Child processes in process groups of their own, so the referee, the clients it starts and the
// server under test go away whole: at a timeout, at the end, and when this script is interrupted.
import { spawn } from "node:child_process";
import { openSync } from "node:fs";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/** Groups still running, stopped when this process is interrupted or exits. */
const running = new Set();

/** Signals every member of the group led by `pid`; false when the group has none left. */
function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether the group led by `pid` still has a member. */
function groupAlive(pid) {
  return signalGroup(pid, 0);
}

for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
]) {
  process.once(signal, () => {
    for (const pid of running) signalGroup(pid, "SIGKILL");
    process.exit(code);
  });
}
process.once("exit", () => {
  for (const pid of running) signalGroup(pid, "SIGKILL");
});

/**
 * Starts `command` (with `args`; a shell line when `args` is omitted) as the leader of a new process
 * group, its output appended to `logFile`. Returns the child and a promise of its exit code.
 */
export function startGroup(command, args, { cwd, env, logFile }) {
  const out = openSync(logFile, "a");
  const child = spawn(command, args ?? [], {
    cwd,
    env,
    detached: true,
    shell: args === undefined,
    stdio: ["ignore", out, out],
  });
  running.add(child.pid);
  const exited = new Promise((done) => {
    child.once("error", () => done(127));
    child.once("exit", (code, signal) => done(code ?? (signal ? 128 + signalNumber(signal) : 1)));
  });
  return { child, exited };
}

function signalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal] ?? 0;
}

/** SIGTERM to the whole group, SIGKILL after `graceMs` if any member is still there. */
export async function stopGroup(pid, graceMs = 5_000) {
  if (pid === undefined) return;
  if (signalGroup(pid, "SIGTERM")) {
    const deadline = Date.now() + graceMs;
    while (groupAlive(pid) && Date.now() < deadline) await sleep(100);
    if (groupAlive(pid)) signalGroup(pid, "SIGKILL");
  }
  running.delete(pid);
}

/**
 * Runs a process group to its end or for at most `timeoutS` seconds: then SIGTERM, and SIGKILL
 * `killAfterS` later. Whatever the group left behind is stopped too.
 */
export async function runGroup(command, args, { timeoutS, killAfterS = 15, ...options }) {
  const { child, exited } = startGroup(command, args, options);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stopGroup(child.pid, killAfterS * 1000);
  }, timeoutS * 1000);
  const code = await exited;
  clearTimeout(timer);
  await stopGroup(child.pid);
  return { code, timedOut };
}

/** Whether something accepts TCP connections on host:port. */
export function portOpen(host, port) {
  return new Promise((done) => {
    const socket = connect({ host, port });
    const finish = (open) => {
      socket.destroy();
      done(open);
    };
    socket.setTimeout(2_000, () => finish(false));
    socket.once("connect", () => finish(true));
    socket.once("error", () => finish(false));
  });
}

/** Waits until host:port accepts connections; fails when `exited` settles first or after `timeoutS`. */
export async function waitForPort(host, port, { exited, timeoutS }) {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + timeoutS * 1000;
  while (!(await portOpen(host, port))) {
    if (gone) throw new Error("the server exited before it was ready");
    if (Date.now() > deadline) throw new Error(`the server was not ready after ${timeoutS}s`);
    await sleep(300);
  }
}
