import { TransientSet } from "../../util/transient.js";

/** Something that expires at `deadline` (milliseconds, `Date.now()` clock). */
export interface Expiring {
  deadline: number;
  expire(): void;
}

/** The longest delay `setTimeout` takes; longer ones fire at once. */
const MAX_DELAY = 2 ** 31 - 1;

/**
 * The timeouts of every request in flight on one connection, on one timer. A `setTimeout` per
 * request costs more than the request itself on a fast transport (allocating, inserting and
 * removing the timer, and the timer list of that duration made anew whenever it empties). The
 * timer is set for the earliest deadline; when it fires, whatever is past its deadline expires and
 * the timer is set for the next one. While nothing is in flight it does not keep the process alive.
 */
export class Deadlines {
  private readonly entries = new TransientSet<Expiring>();
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Number.POSITIVE_INFINITY;

  add(entry: Expiring): void {
    this.entries.add(entry);
    if (entry.deadline < this.armedFor) this.arm(entry.deadline);
    else if (this.entries.size === 1) this.timer?.ref();
  }

  /** Takes note that an entry's deadline moved (it may now be the earliest). */
  moved(entry: Expiring): void {
    if (this.entries.has(entry) && entry.deadline < this.armedFor) this.arm(entry.deadline);
  }

  delete(entry: Expiring): void {
    if (this.entries.delete(entry) && this.entries.size === 0) this.timer?.unref();
  }

  private arm(deadline: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.armedFor = deadline;
    this.timer = setTimeout(this.fire, Math.min(Math.max(0, deadline - Date.now()), MAX_DELAY));
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    const expired: Expiring[] = [];
    for (const entry of this.entries) {
      if (entry.deadline <= now) expired.push(entry);
      else if (entry.deadline < next) next = entry.deadline;
    }
    for (const entry of expired) {
      this.entries.delete(entry);
      entry.expire();
    }
    if (next !== Number.POSITIVE_INFINITY && this.entries.size > 0) this.arm(next);
  };
}
