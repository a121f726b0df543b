/**
 * Makes sure no server process group outlives the client process: groups still running when the
 * process exits are killed, and SIGINT/SIGTERM/SIGHUP first end them before the process dies.
 * Listeners are installed only while some group is alive.
 */

const live = new Set<number>();
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
let installed = false;

import { groupAlive, signalGroup } from "./process-group.js";

function killAllNow(): void {
  for (const pgid of live) signalGroup(pgid, "SIGKILL");
  live.clear();
}

async function onSignal(signal: NodeJS.Signals): Promise<void> {
  const groups = [...live];
  for (const pgid of groups) signalGroup(pgid, "SIGTERM");
  const deadline = Date.now() + 1000;
  while (Date.now() < deadline && groups.some(groupAlive)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  killAllNow();
  // Someone else handles this signal: leave the process to them. Otherwise die of it as Node would.
  if (process.listenerCount(signal) > 1) return;
  uninstall();
  process.kill(process.pid, signal);
}

const handlers = new Map<NodeJS.Signals, () => void>(
  SIGNALS.map((signal) => [signal, () => void onSignal(signal)]),
);

function install(): void {
  if (installed) return;
  installed = true;
  process.on("exit", killAllNow);
  for (const [signal, handler] of handlers) process.on(signal, handler);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off("exit", killAllNow);
  for (const [signal, handler] of handlers) process.off(signal, handler);
}

/** Tracks a process group the client started. */
export function trackGroup(pgid: number): void {
  live.add(pgid);
  install();
}

/** Stops tracking a group that is gone. */
export function untrackGroup(pgid: number): void {
  live.delete(pgid);
  if (live.size === 0) uninstall();
}
