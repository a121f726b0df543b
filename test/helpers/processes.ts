import { readdirSync, readFileSync } from "node:fs";

/**
 * Live processes whose process group is `pgid`, read from /proc. Zombies are left out: they have
 * exited, and reaping them is their parent's job (init's, for orphans), which may come later.
 */
export function groupMembers(pgid: number): { pid: number; state: string; command: string }[] {
  const found: { pid: number; state: string; command: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // The command sits in parentheses and may contain spaces; the fields after it are fixed.
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z") {
      found.push({
        pid: Number(entry),
        state: fields[0]!,
        command: stat.slice(stat.indexOf("(") + 1, close),
      });
    }
  }
  return found;
}

/** Whether a process exists (a zombie counts). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
