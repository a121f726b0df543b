import type { JSONRPCMessage } from "../../jsonrpc/messages.js";

/**
 * The responses to one JSON-RPC batch (2025-03-26), sent together as one array once every request
 * of the batch is answered. A batch of notifications and responses only gets no answer.
 */
export class Batch {
  /** Requests of the batch not yet answered. */
  open = 0;
  private readonly responses: JSONRPCMessage[] = [];
  private sealed = false;

  constructor(private readonly send: (responses: JSONRPCMessage[]) => void) {}

  /** Adds the response to a request refused at once (it was never counted as open). */
  add(response: JSONRPCMessage): void {
    this.responses.push(response);
    this.flushIfDone();
  }

  /** One of the open requests is done, answered with `response` or (cancelled) not at all. */
  answered(response: JSONRPCMessage | undefined): void {
    this.open--;
    if (response !== undefined) this.responses.push(response);
    this.flushIfDone();
  }

  /** Every message of the batch has been handed out: it is complete once its requests are answered. */
  seal(): void {
    this.sealed = true;
    this.flushIfDone();
  }

  private flushIfDone(): void {
    if (!this.sealed || this.open > 0 || this.responses.length === 0) return;
    this.send(this.responses.splice(0));
  }
}
