import { readdirSync, readFileSync } from "node:fs";

/** Sends a signal to a whole process group; false if the group is gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

const hasProc = process.platform === "linux";

/**
 * Whether any process of the group still runs. On Linux, zombies (exited, waiting to be reaped by
 * their parent or init) do not count; elsewhere any member does, since only `kill(0)` can tell.
 */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  if (!hasProc) return true;
  for (const entry of readdirSync("/proc")) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "latin1");
    } catch {
      continue;
    }
    // Fields after the parenthesised command: state, ppid, pgrp, …
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ", 3);
    if (Number(fields[2]) === pgid && fields[0] !== "Z") return true;
  }
  return false;
}
