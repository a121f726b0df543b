/**
 * The calls in flight to one upstream, linked through the calls themselves. A `Set` or `Map` that
 * empties after every call makes V8 allocate a new table on each shrink, in old space once the
 * collection is old: garbage only a full collection frees, which also keeps the young objects it
 * points to alive through every young collection until then. A list takes no allocation at all.
 */

/** What a list links: each call carries its own two links. */
export interface InFlightLinks<T> {
  previousInFlight: T | undefined;
  nextInFlight: T | undefined;
}

export class InFlight<T extends InFlightLinks<T> & { readonly signal: AbortSignal }> {
  private first: T | undefined;
  private last: T | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(call: T): void {
    call.previousInFlight = this.last;
    call.nextInFlight = undefined;
    if (this.last) this.last.nextInFlight = call;
    else this.first = call;
    this.last = call;
    this.count++;
  }

  /** Unlinks `call`, a call of this list; one already removed, or never added, is left alone. */
  delete(call: T): void {
    const { previousInFlight: previous, nextInFlight: next } = call;
    if (previous === undefined && this.first !== call) return;
    if (previous) previous.nextInFlight = next;
    else this.first = next;
    if (next) next.previousInFlight = previous;
    else this.last = previous;
    call.previousInFlight = undefined;
    call.nextInFlight = undefined;
    this.count--;
  }

  /**
   * The call made with `signal`. A walk of the calls the upstream's gate let through, so at most
   * its `maxConcurrency`; it only happens when an upstream asks a question.
   */
  withSignal(signal: AbortSignal): T | undefined {
    for (let call = this.first; call; call = call.nextInFlight) if (call.signal === signal) return call;
    return undefined;
  }

  /** The calls, in the order they were added. */
  *[Symbol.iterator](): IterableIterator<T> {
    for (let call = this.first; call; call = call.nextInFlight) yield call;
  }
}
