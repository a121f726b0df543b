import { ErrorCode, McpError } from "../../../jsonrpc/errors.js";
import type { JSONRPCMessage, RequestId } from "../../../jsonrpc/messages.js";
import type { Transport, TransportHandlers } from "../../transport.js";
import { formatSseEvent } from "../sse.js";
import type { EventStore } from "./event-store.js";
import type { HttpExchange, SseSink } from "./exchange.js";

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
  /** The HTTP status of a JSON error response, by JSON-RPC code (2026-07-28 maps them); default 200. */
  errorStatus?: (code: number) => number;
}

/**
 * One SSE stream: a POST's answer, or the standalone GET stream. Its sink may be replaced when the
 * client resumes it. Writes stay in order even with an asynchronous event store.
 */
class Stream {
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

  /** Writes a message, stored first when resumable; a detached stream only stores it. */
  write(message: JSONRPCMessage): void {
    const store = this.options.eventStore;
    if (!store) {
      this.emit(undefined, message);
    } else if (this.tail) {
      this.tail = this.tail.then(async () => this.emit(await store.append(this.id, message), message));
    } else {
      const id = store.append(this.id, message);
      if (typeof id === "string") this.emit(id, message);
      else this.tail = id.then((eventId) => this.emit(eventId, message));
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
    const end = () => {
      if (!this.sink) return;
      this.detach();
      this.onEnd(this);
    };
    if (this.tail) this.tail = this.tail.then(end);
    else end();
  }

  private emit(id: string | undefined, message: JSONRPCMessage): void {
    const event = formatSseEvent({ id, data: JSON.stringify(message) });
    if (this.sink) {
      this.sink.write(event);
    } else if (this.backlog) {
      this.backlog.push(event);
      if (this.backlog.length > MAX_BACKLOG) this.backlog.shift();
    }
  }
}

/** A POST waiting for the responses to its requests. */
interface PendingPost {
  exchange: HttpExchange | undefined;
  stream: Stream | undefined;
  open: Set<RequestId>;
}

let streamCounter = 0;

/** The most undelivered messages the GET stream keeps for a client that has not opened it yet. */
const MAX_BACKLOG = 1000;

/**
 * The transport of one Streamable HTTP session: messages arrive from POSTs; each answer goes back
 * on the POST of its request (as JSON or an SSE stream), everything else on the GET stream.
 */
export class HttpSessionTransport implements Transport {
  private handlers: TransportHandlers | undefined;
  private readonly byRequest = new Map<RequestId, PendingPost>();
  private standalone: Stream | undefined;
  private readonly resumable = new Map<string, Stream>();
  private closed = false;

  constructor(
    readonly sessionId: string | undefined,
    private readonly options: StreamOptions,
  ) {}

  async start(handlers: TransportHandlers): Promise<void> {
    this.handlers = handlers;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Delivers the messages of one POST; the exchange is answered when their responses are sent. */
  receive(exchange: HttpExchange, messages: unknown[], requestIds: RequestId[]): void {
    if (requestIds.length === 0) {
      exchange.respond(202, this.options.headers());
    } else {
      const post: PendingPost = { exchange, stream: undefined, open: new Set(requestIds) };
      for (const id of requestIds) this.byRequest.set(id, post);
      // Statelessly, a client that hangs up has cancelled its request (2026-07-28).
      if (this.options.closeWhenAnswered) exchange.onAbort(() => void this.close());
      if (this.options.responseMode === "sse") this.openPostStream(post);
    }
    for (const message of messages) this.handlers?.onmessage(message);
  }

  /** Serves the standalone GET stream, or resumes a stream after `Last-Event-ID`. */
  async openGet(exchange: HttpExchange, lastEventId: string | undefined): Promise<void> {
    const store = this.options.eventStore;
    if (lastEventId !== undefined && store) {
      const sink = exchange.openStream(this.streamHeaders());
      // Event ids are `<stream id>:<position>`: only this session's own streams are replayed.
      const stream = this.resumable.get(lastEventId.slice(0, lastEventId.lastIndexOf(":")));
      if (!stream) {
        sink.end();
        return;
      }
      const replayed = store.replayAfter(lastEventId, (id, message) =>
        sink.write(formatSseEvent({ id, data: JSON.stringify(message) })),
      );
      // A synchronous store replays and attaches in one step, so no message falls in between.
      if (replayed instanceof Promise) await replayed;
      if (stream.done) {
        this.resumable.delete(stream.id);
        sink.end();
      } else {
        stream.attach(sink, true);
      }
      return;
    }
    if (this.standalone?.listening) {
      exchange.respond(409, { "content-type": "application/json", ...this.options.headers() }, conflict);
      return;
    }
    this.standalone ??= this.newStream(true);
    this.standalone.attach(exchange.openStream(this.streamHeaders()));
  }

  send(message: JSONRPCMessage, relatedRequestId?: RequestId): void {
    if (this.closed) throw new McpError(ErrorCode.ConnectionClosed, "the HTTP session is closed");
    const isResponse = "id" in message && !("method" in message);
    const key = isResponse ? (message as { id: RequestId }).id : relatedRequestId;
    const post = key === undefined ? undefined : this.byRequest.get(key);
    if (!post) {
      this.sendStandalone(message);
      return;
    }
    if (isResponse) {
      this.byRequest.delete(key!);
      post.open.delete(key!);
    }
    this.answer(post, message, isResponse && post.open.size === 0);
  }

  /** Ends the SSE stream of a request now; the client resumes it with GET + `Last-Event-ID` (SEP-1699). */
  closeRequestStream(requestId: RequestId): boolean {
    const post = this.byRequest.get(requestId);
    if (!post || !this.options.eventStore) return false;
    // The stream opens first if the answer was to be JSON, so its priming event tells the client where to resume.
    this.openPostStream(post).detach();
    return true;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const post of new Set(this.byRequest.values())) {
      post.exchange?.respond(404, { "content-type": "application/json", ...this.options.headers() }, gone);
    }
    this.byRequest.clear();
    for (const stream of this.resumable.values()) stream.detach();
    this.resumable.clear();
    this.standalone?.detach();
    this.handlers?.onclose();
  }

  private answer(post: PendingPost, message: JSONRPCMessage, last: boolean): void {
    if (!post.stream && last && this.options.responseMode !== "sse") {
      // Only the response, and nothing before it: plain JSON is cheaper than a stream.
      const headers = { "content-type": "application/json", ...this.options.headers() };
      const error = (message as { error?: { code: number } }).error;
      const status = error && this.options.errorStatus ? this.options.errorStatus(error.code) : 200;
      post.exchange?.respond(status, headers, JSON.stringify(message));
      post.exchange = undefined;
    } else {
      const stream = this.openPostStream(post);
      stream.write(message);
      if (last) stream.finish();
    }
    if (last && this.options.closeWhenAnswered && this.byRequest.size === 0)
      queueMicrotask(() => void this.close());
  }

  private openPostStream(post: PendingPost): Stream {
    if (post.stream) return post.stream;
    const stream = this.newStream();
    post.stream = stream;
    const sink = post.exchange!.openStream(this.streamHeaders());
    // Without resumability, a client that closes the stream has cancelled the request.
    if (this.options.closeWhenAnswered) sink.onClose(() => void this.close());
    stream.attach(sink);
    post.exchange = undefined;
    return stream;
  }

  private sendStandalone(message: JSONRPCMessage): void {
    // Before the client opens its GET stream, the stream keeps what it would have received.
    this.standalone ??= this.newStream(true);
    this.standalone.write(message);
  }

  /** Whether a request is being answered or a client is listening: such a session is not idle. */
  get busy(): boolean {
    if (this.byRequest.size > 0 || this.standalone?.listening) return true;
    for (const stream of this.resumable.values()) if (stream.listening) return true;
    return false;
  }

  private newStream(keepBacklog = false): Stream {
    const id = `${this.sessionId ?? "stateless"}-${++streamCounter}`;
    const stream = new Stream(id, this.options, (ended) => this.resumable.delete(ended.id), keepBacklog);
    if (this.options.eventStore) this.resumable.set(stream.id, stream);
    return stream;
  }

  private streamHeaders(): Record<string, string> {
    return {
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
      ...this.options.headers(),
    };
  }
}

const conflict = JSON.stringify({
  jsonrpc: "2.0",
  error: { code: ErrorCode.ConnectionClosed, message: "Conflict: this session already has a GET stream" },
});

const gone = JSON.stringify({
  jsonrpc: "2.0",
  error: { code: ErrorCode.ConnectionClosed, message: "The session ended before the request was answered" },
});
