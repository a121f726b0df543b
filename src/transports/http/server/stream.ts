import { randomInt } from "node:crypto";
import { messageJson } from "../../../jsonrpc/fixed-json.js";
import type { JSONRPCMessage } from "../../../jsonrpc/messages.js";
import { extend } from "../../../util/extend.js";
import type { HttpExchange, SseSink } from "../shared/exchange.js";
import { warnOnOverflow } from "../shared/overflow-warning.js";
import { formatSseEvent } from "../shared/sse.js";
import type { StreamBuffer } from "../shared/stream-buffer.js";
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
  /** No session: the transport ends once its one POST is answered, or when the client goes away. */
  closeWhenAnswered?: boolean;
  /** How much may wait for a client that does not read, on each stream and in its backlog. */
  maxBuffer: StreamBuffer;
  /** Where a stream closed for its client not reading is logged; unset, on stderr. */
  warn?: ((message: string) => void) | undefined;
}

/**
 * Opens the event stream of an exchange, bounded by `options.maxBuffer`; a stream closed past it
 * is logged as `what` (a request's stream, the GET stream…).
 */
export function openSink(exchange: HttpExchange, options: StreamOptions, what: string): SseSink {
  const sink = exchange.openStream(streamHeaders(options.headers()), options.maxBuffer);
  warnOnOverflow(sink, options.maxBuffer, what, options.eventStore !== undefined, options.warn);
  return sink;
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
  /** The size of the backlog's events, in bytes. */
  private backlogBytes = 0;

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
      this.backlogBytes = 0;
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
      // Half a stream's limit, the oldest forgotten first, so that written at once when the client
      // comes it leaves room; the newest is kept, as a stream sends one event larger than its limit.
      const backlog = this.backlog;
      const limit = this.options.maxBuffer;
      backlog.push(event);
      this.backlogBytes += Buffer.byteLength(event);
      while (
        backlog.length > 1 &&
        (backlog.length > Math.min(MAX_BACKLOG, limit.events / 2) || this.backlogBytes > limit.bytes / 2)
      )
        this.backlogBytes -= Buffer.byteLength(backlog.shift()!);
    }
  }
}

/** An event read back from the event store. */
export interface StoredEvent {
  id: string;
  message: JSONRPCMessage;
}

/** Collects what an event store replays. */
export function collectInto(events: StoredEvent[]): (id: string, message: JSONRPCMessage) => void {
  return (id, message) => void events.push({ id, message });
}

/** The SSE text of a stored event. */
export function storedEvent(id: string, message: JSONRPCMessage): string {
  return formatSseEvent({ id, data: messageJson(message) });
}

/**
 * Writes replayed events to `sink` a part at a time, each at most half its limit, waiting between
 * parts until the client has taken the one before: a replay larger than the limit still reaches a
 * client that reads, and one that does not is held to the limit. Resolves with the id of the last
 * event written (`undefined` if none was) once all are written or the stream closed.
 */
export async function replayPaced(
  sink: SseSink,
  events: readonly StoredEvent[],
  limit: StreamBuffer,
): Promise<string | undefined> {
  let last: string | undefined;
  let bytes = 0;
  let count = 0;
  for (const { id, message } of events) {
    const text = storedEvent(id, message);
    const size = Buffer.byteLength(text);
    if (count > 0 && (bytes + size > limit.bytes / 2 || count + 1 > limit.events / 2)) {
      await sink.drained();
      bytes = 0;
      count = 0;
    }
    if (sink.closed) break;
    sink.write(text);
    last = id;
    bytes += size;
    count++;
  }
  return last;
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
function streamHeaders(own: Record<string, string>): Record<string, string> {
  return extend(SSE_HEADERS, own);
}
