/** One publication, counting the replicas that acknowledged it. */
interface Pending {
  count: number;
  /** How many replicas got the message, less this one: known once the publication returns. */
  expected: number;
  done: (() => void) | undefined;
}

/**
 * Publications on a message bus that wait until every other replica acknowledged them, so what a
 * replica answers next is true wherever the client's next request goes. Each publication gets a
 * number; receivers send it back; the publisher waits for as many acknowledgements as the bus
 * says it reached, less itself, or for `timeout` ms (a replica that has not answered by then is
 * stalled). One publication is pending per request of this replica's own that waits for it, so
 * the map is as bounded as the requests are.
 */
export class Acknowledgements {
  private readonly pending = new Map<number, Pending>();
  private seq = 0;
  private closed = false;

  constructor(private readonly timeout: number) {}

  /** Publishes what `send` sends under a new number and waits for the other replicas' acknowledgements. */
  async publish(send: (seq: number) => Promise<number | undefined>): Promise<void> {
    const seq = ++this.seq;
    // Registered first: an acknowledgement may arrive before the publication returns.
    const pending: Pending = { count: 0, expected: Infinity, done: undefined };
    this.pending.set(seq, pending);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const receivers = await send(seq);
      // This replica is one of the receivers; a bus that cannot count is not waited for.
      pending.expected = receivers === undefined ? 0 : receivers - 1;
      if (pending.count >= pending.expected || this.closed) return;
      await new Promise<void>((resolve) => {
        pending.done = resolve;
        timer = setTimeout(resolve, this.timeout);
      });
    } finally {
      clearTimeout(timer);
      this.pending.delete(seq);
    }
  }

  /** Another replica acknowledged publication `seq`. */
  acknowledged(seq: number): void {
    const pending = this.pending.get(seq);
    if (!pending) return;
    pending.count++;
    if (pending.count >= pending.expected) pending.done?.();
  }

  /** Stops waiting, now and from now on. */
  close(): void {
    this.closed = true;
    for (const pending of this.pending.values()) pending.done?.();
    this.pending.clear();
  }
}
