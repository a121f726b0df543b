/**
 * Abort controllers of forwarded calls, used again once a call is over. Every call needs a signal
 * (it cancels the upstream call and tells a stateless upstream's questions which call they belong
 * to), and on Node 20 each new signal the proxy listened to came with hidden classes of its own
 * (three new maps, `node --log-maps` showed): about a fifth of a proxied call's instructions.
 */
import { getEventListeners } from "node:events";

/** The most controllers kept for reuse: more than calls in flight at once only costs memory. */
const KEPT = 64;

/**
 * Every pooled signal keeps this listener. A signal keeps its listeners in a `Map` by event type
 * and deletes the type with its last listener; the upstream call's own listener, added and removed
 * on every call, then made V8 allocate a new table for that old `Map` each time (see `InFlight`).
 */
const held = () => {};

export class SignalPool {
  private readonly free: AbortController[] = [];

  /** A controller whose signal has not aborted and has no listeners but the pool's own. */
  take(): AbortController {
    const kept = this.free.pop();
    if (kept) return kept;
    const controller = new AbortController();
    controller.signal.addEventListener("abort", held);
    return controller;
  }

  /**
   * Gives a controller back once nothing aborts it any more. One that aborted, or whose signal
   * someone still listens to, is dropped: whoever holds it must never see a later call's abort.
   */
  give(controller: AbortController): void {
    if (this.free.length >= KEPT || controller.signal.aborted) return;
    if (getEventListeners(controller.signal, "abort").length > 1) return;
    this.free.push(controller);
  }
}
