import { randomInt } from "node:crypto";
import { messageJson } from "../../../jsonrpc/fixed-json.js";
import type { JSONRPCMessage } from "../../../jsonrpc/messages.js";
import { extend } from "../../../util/extend.js";
import type { SseSink } from "../shared/exchange.js";
import { formatSseEvent } from "../shared/sse.js";
import type { EventStore } from "./event-store.js";

/** How a POST's answer is sent: JSON unless something comes before the response, always JSON, or always SSE. */
export type ResponseMode = "auto" | "json" | "sse";

export interface StreamOptions {
  responseMode: ResponseMode;
  eventStore: EventStore | undefined;
  /** Sent as `retry:` on each stream, so clients know when to come back (SEP-1699). */
  retryInterval: number | undefined;
  /** Comment lines on idle streams, so proxies keep them open; 0 disables. */
  keepAliveInterval: number;
  /** Headers every response of this session carries (the session id). */
  headers: () => Record<string, string>;
  /** Stateless mode: the session ends once its one POST is answered, or when the client goes away. */
  closeWhenAnswered?: boolean;
}

/**
 * One SSE stream: a POST's answer, or the standalone GET stream. Its sink may be replaced when the
 * client resumes it. Writes stay in order even with an asynchronous event store.
 */
export class Stream {
  sink: SseSink | undefined;
  /** No more messages will come; the stream ends once they are written. */
  done = false;
  private keepAlive: NodeJS.Timeout | undefined;
  private tail: Promise<void> | undefined;
  /** Messages written while no client listened, for the next plain GET (standalone stream only). */
  private backlog: string[] | undefined;

  constructor(
    readonly id: string,
    private readonly options: StreamOptions,
    private readonly onEnd: (stream: Stream) => void,
    keepBacklog = false,
  ) {
    if (keepBacklog) this.backlog = [];
  }

  /** Whether a client is reading this stream now. */
  get listening(): boolean {
    return this.sink !== undefined && !this.sink.closed;
  }

  /** Starts writing to a client; `resumed` means it got the missed events by replay instead. */
  attach(sink: SseSink, resumed = false): void {
    this.sink = sink;
    if (!resumed) this.prime();
    const backlog = this.backlog;
    if (backlog && backlog.length > 0) {
      this.backlog = [];
      if (!resumed) for (const event of backlog) sink.write(event);
    }
    if (this.options.keepAliveInterval > 0) {
      this.keepAlive = setInterval(() => sink.write(": keep-alive\n\n"), this.options.keepAliveInterval);
      this.keepAlive.unref();
    }
    sink.onClose(() => {
      if (this.sink === sink) this.detach();
    });
  }

  /**
   * Writes a message, stored first when resumable; a detached stream only stores it. It is
   * serialized first (`json`, if the caller already did), so one that cannot be throws before
   * anything is stored or written.
   */
  write(message: JSONRPCMessage, json: string = messageJson(message)): void {
    const store = this.options.eventStore;
    if (!store) {
      this.emit(undefined, json);
    } else if (this.tail) {
      this.tail = this.tail.then(async () => this.emit(await stored(store, this.id, message), json));
    } else {
      const id = store.append(this.id, message);
      if (typeof id === "string") this.emit(id, json);
      else
        this.tail = id.then(
          (eventId) => this.emit(eventId, json),
          () => this.emit(undefined, json),
        );
    }
  }

  /** The priming event: an id and a retry interval before any message, so a client can resume at once. */
  private prime(): void {
    const retry = this.options.retryInterval;
    if (!this.options.eventStore && retry === undefined) return;
    const id = this.options.eventStore ? `${this.id}:0` : undefined;
    this.sink?.write(formatSseEvent({ id, retry, data: "" }));
  }

  /** Ends the response now; the stream can still be resumed if it is not done. */
  detach(): void {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    const sink = this.sink;
    this.sink = undefined;
    if (sink && !sink.closed) sink.end();
  }

  /** No more messages: end once what is queued is written. */
  finish(): void {
    this.done = true;
    const store = this.options.eventStore;
    if (store?.finish) {
      if (this.tail) this.tail = this.tail.then(() => store.finish!(this.id));
      else store.finish(this.id);
    }
    const end = () => {
      if (!this.sink) return;
      this.detach();
      this.onEnd(this);
    };
    if (this.tail) this.tail = this.tail.then(end);
    else end();
  }

  private emit(id: string | undefined, json: string): void {
    const event = formatSseEvent({ id, data: json });
    if (this.sink) {
      this.sink.write(event);
    } else if (this.backlog) {
      this.backlog.push(event);
      if (this.backlog.length > MAX_BACKLOG) this.backlog.shift();
    }
  }
}

/** The event id of a stored message; none if the store failed (the client then cannot resume past it). */
async function stored(
  store: EventStore,
  streamId: string,
  message: JSONRPCMessage,
): Promise<string | undefined> {
  try {
    return await store.append(streamId, message);
  } catch {
    return undefined;
  }
}

let streamCounter = 0;
/** Tells this process's streams apart from those of other replicas sharing an event store. */
const PROCESS_TAG = String(randomInt(1e9, 1e10));

/** A name for a new stream's id (digits: a tag of ten, then a count), unique in this process and beyond it. */
export function nextStreamNumber(): string {
  return `${PROCESS_TAG}${++streamCounter}`;
}

/** The most undelivered messages the GET stream keeps for a client that has not opened it yet. */
const MAX_BACKLOG = 1000;

const SSE_HEADERS: Record<string, string> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};

/** The headers of an SSE response, then the session's own. */
export function streamHeaders(own: Record<string, string>): Record<string, string> {
  return extend(SSE_HEADERS, own);
}
