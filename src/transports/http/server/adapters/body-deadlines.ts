/**
 * The deadlines of the request bodies being read, kept on one timer. A timer per request cost more
 * than reading a small body: node drops its list of timers of a duration when the last one in it
 * is cleared, and makes and schedules it again for the next request. Here a request only joins a
 * set; the one timer is armed for the earliest deadline and, when it fires, expires what is due
 * and is armed again for what is left.
 */

import { TransientSet } from "../../../../util/transient.js";

/** A body being read: when it is due, and what to do if it is not all there by then. */
interface BodyDeadline {
  readonly at: number;
  readonly expire: () => void;
}

const waiting = new TransientSet<BodyDeadline>();
let timer: NodeJS.Timeout | undefined;
let timerAt = Number.POSITIVE_INFINITY;

/** Calls `expire` in `timeout` ms unless `clearBodyDeadline` is called first. */
export function bodyDeadline(timeout: number, expire: () => void): BodyDeadline {
  const deadline = { at: Date.now() + timeout, expire };
  waiting.add(deadline);
  if (deadline.at < timerAt) arm(deadline.at);
  return deadline;
}

export function clearBodyDeadline(deadline: BodyDeadline): void {
  waiting.delete(deadline);
}

function arm(at: number): void {
  if (timer) clearTimeout(timer);
  timerAt = at;
  timer = setTimeout(expireDue, Math.max(0, at - Date.now()));
  // Only a body being read keeps the process alive, through its connection.
  timer.unref();
}

function expireDue(): void {
  timer = undefined;
  timerAt = Number.POSITIVE_INFINITY;
  const now = Date.now();
  let next = Number.POSITIVE_INFINITY;
  for (const deadline of waiting) {
    if (deadline.at <= now) {
      waiting.delete(deadline);
      deadline.expire();
    } else if (deadline.at < next) {
      next = deadline.at;
    }
  }
  if (next !== Number.POSITIVE_INFINITY) arm(next);
}
