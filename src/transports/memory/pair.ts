import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { JSONRPCMessage } from "../../jsonrpc/messages.js";
import type { Transport, TransportHandlers } from "../../protocol/transport.js";

/** One end of an in-memory pair. Messages are cloned through JSON, as on a real wire. */
class MemoryTransport implements Transport {
  other!: MemoryTransport;
  private handlers: TransportHandlers | undefined;
  private closed = false;
  private readonly early: string[] = [];

  async start(handlers: TransportHandlers): Promise<void> {
    this.handlers = handlers;
    for (const text of this.early.splice(0)) handlers.onmessage(JSON.parse(text));
  }

  send(message: JSONRPCMessage): void {
    if (this.closed) throw new McpError(ErrorCode.ConnectionClosed, "in-memory transport is closed");
    const text = JSON.stringify(message);
    queueMicrotask(() => this.other.deliver(text));
  }

  private deliver(text: string): void {
    if (this.closed) return;
    if (this.handlers) this.handlers.onmessage(JSON.parse(text));
    else this.early.push(text);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.handlers?.onclose();
    await this.other.close();
  }
}

/** Two connected transports in one process, for tests and embedding. */
export function createMemoryTransportPair(): [Transport, Transport] {
  const a = new MemoryTransport();
  const b = new MemoryTransport();
  a.other = b;
  b.other = a;
  return [a, b];
}
