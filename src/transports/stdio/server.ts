import type { Readable, Writable } from "node:stream";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { NdjsonDecoder, serializeMessage } from "../../jsonrpc/framing.js";
import type { JSONRPCMessage } from "../../jsonrpc/messages.js";
import { PIPE_NETWORK, type Transport, type TransportHandlers } from "../../protocol/transport.js";
import { MESSAGES_PER_TURN, WriteBatcher } from "./write-batcher.js";

export interface StdioServerTransportOptions {
  /** Where messages come from; default `process.stdin`. */
  input?: Readable;
  /** Where messages go; default `process.stdout`. */
  output?: Writable;
  /** Longest message accepted, in characters. */
  maxMessageSize?: number;
}

/**
 * The server's stdio transport. While it runs on `process.stdout`, anything else the process
 * prints there (`console.log` included) goes to stderr instead, so stdout carries only JSON-RPC.
 */
export class StdioServerTransport implements Transport {
  readonly network = PIPE_NETWORK;
  private readonly input: Readable;
  private readonly output: Writable;
  private writer: WriteBatcher | undefined;
  private handlers: TransportHandlers | undefined;
  private closed = false;
  private restoreStdout: (() => void) | undefined;
  private readonly onData = (chunk: Buffer) => {
    const writer = this.writer;
    writer?.hold();
    try {
      this.decoder?.push(chunk);
    } finally {
      writer?.release();
    }
  };
  private readonly onEnd = () => {
    this.decoder?.end();
    this.handlers?.oninputend();
  };
  private readonly onOutputError = () => void this.close();
  private decoder: NdjsonDecoder | undefined;

  constructor(private readonly options: StdioServerTransportOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
  }

  async start(handlers: TransportHandlers): Promise<void> {
    this.handlers = handlers;
    this.writer = new WriteBatcher(this.output, this.takeOver());
    this.decoder = new NdjsonDecoder(
      (message) => handlers.onmessage(message),
      (error) => handlers.onerror(error),
      { maxMessageSize: this.options.maxMessageSize, messagesPerTurn: MESSAGES_PER_TURN },
    );
    this.input.on("data", this.onData);
    this.input.once("end", this.onEnd);
    this.output.on("error", this.onOutputError);
  }

  /** Returns the function that writes to the real output, diverting other writers if it is stdout. */
  private takeOver(): (text: string) => void {
    const output = this.output;
    const write = output.write.bind(output) as (text: string) => boolean;
    if (output !== process.stdout) return (text) => void write(text);
    const original = process.stdout.write;
    process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
    this.restoreStdout = () => {
      process.stdout.write = original;
    };
    return (text) => void write(text);
  }

  send(message: JSONRPCMessage): void {
    if (this.closed || !this.writer)
      throw new McpError(ErrorCode.ConnectionClosed, "stdio transport is closed");
    this.writer.write(serializeMessage(message));
  }

  sendBatch(responses: JSONRPCMessage[]): void {
    if (this.closed || !this.writer)
      throw new McpError(ErrorCode.ConnectionClosed, "stdio transport is closed");
    this.writer.write(`${JSON.stringify(responses)}\n`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.writer?.flush();
    this.decoder?.clear();
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.output.off("error", this.onOutputError);
    if (this.input === process.stdin) process.stdin.pause();
    this.restoreStdout?.();
    this.handlers?.onclose();
  }
}
