import { ErrorCode, McpError } from "../../../jsonrpc/errors.js";
import { messageJson } from "../../../jsonrpc/fixed-json.js";
import type { JSONRPCMessage, RequestId } from "../../../jsonrpc/messages.js";
import {
  type AuthInfo,
  CHECKED,
  type SharedSessionState,
  TCP_NETWORK,
  type Transport,
  type TransportHandlers,
} from "../../../protocol/transport.js";
import { TransientMap } from "../../../util/transient.js";
import type { HttpExchange, SseSink } from "../shared/exchange.js";
import { type StreamedRequest, streamedRequests } from "./event-store.js";
import type { Replication } from "./replication.js";
import { resumeOwn, resumeShared } from "./resume.js";
import { SessionLink, unkept } from "./session-link.js";
import { nextStreamNumber, openSink, Stream, type StreamOptions } from "./stream.js";

export type { ResponseMode } from "./stream.js";

/** A POST waiting for the responses to its requests. */
interface PendingPost {
  exchange: HttpExchange | undefined;
  stream: Stream | undefined;
  /** How many of its requests are still unanswered (a batch's ids are distinct). */
  open: number;
  /** A JSON-RPC batch (2025-03-26): its responses, kept until the last, go back as one array. */
  batch: { message: JSONRPCMessage; json: string }[] | undefined;
  /** Its requests, for an event store shared by replicas (see `EventStore.open`). */
  requests: StreamedRequest[] | undefined;
}

/**
 * The transport of one Streamable HTTP session: messages arrive from POSTs; each answer goes back
 * on the POST of its request (as JSON or an SSE stream), everything else on the GET stream.
 */
export class HttpSessionTransport implements Transport {
  readonly network = TCP_NETWORK;
  private handlers: TransportHandlers | undefined;
  private readonly byRequest = new TransientMap<RequestId, PendingPost>();
  private standalone: Stream | undefined;
  private readonly resumable = new Map<string, Stream>();
  private closed = false;
  /** Streams of other replicas followed for clients here (see `resumeShared`). */
  private readonly follows = new Set<() => void>();
  /** @internal The session's link to the other replicas serving it, when it has some. */
  readonly link: SessionLink | undefined;

  constructor(
    readonly sessionId: string | undefined,
    private readonly options: StreamOptions,
    /** Serves a session shared by several replicas. */
    replication?: Replication,
  ) {
    if (replication && sessionId !== undefined) {
      this.link = new SessionLink(replication, sessionId, {
        deliver: (message) => this.handlers?.onmessage(message, CHECKED),
        writeStandalone: (message) => this.sendStandalone(message, messageJson(message)),
        listening: () => this.standalone?.listening ?? false,
        end: () => void this.close(),
      });
    }
  }

  /** The session's state shared with the other replicas, when it is served by several. */
  get sharedSession(): SharedSessionState | undefined {
    return this.link;
  }

  async start(handlers: TransportHandlers): Promise<void> {
    this.handlers = handlers;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Delivers the messages of one POST (a JSON-RPC batch if `batch`), sent by `auth` if its
   * credentials were verified; the exchange is answered when their responses are sent.
   */
  receive(
    exchange: HttpExchange,
    messages: JSONRPCMessage[],
    requestIds: RequestId[],
    batch = false,
    auth?: AuthInfo,
  ): void {
    if (requestIds.length === 0) {
      exchange.respond(202, this.options.headers());
    } else {
      const post: PendingPost = {
        exchange,
        stream: undefined,
        open: requestIds.length,
        batch: batch ? [] : undefined,
        requests: this.options.eventStore?.open ? streamedRequests(messages) : undefined,
      };
      for (const id of requestIds) this.byRequest.set(id, post);
      // Without a session, a client that hangs up has cancelled its request: nothing could resume it.
      if (this.options.closeWhenAnswered) exchange.onAbort(() => void this.close());
      if (this.options.responseMode === "sse") this.openPostStream(post);
    }
    const checked = auth ? { auth } : CHECKED;
    const link = this.link;
    for (const message of messages) {
      if (link && !("method" in message) && "id" in message) {
        // A response to a request another replica sent goes there.
        const id = link.incomingResponse(message as JSONRPCMessage & { id: RequestId });
        if (id !== undefined) this.handlers?.onmessage({ ...message, id } as JSONRPCMessage, checked);
      } else {
        if (link && "method" in message && message.method === "notifications/cancelled")
          link.forwardCancel(message);
        this.handlers?.onmessage(message, checked);
      }
    }
  }

  /** Serves the standalone GET stream, or resumes a stream after `Last-Event-ID`. */
  async openGet(exchange: HttpExchange, lastEventId: string | undefined): Promise<void> {
    const store = this.options.eventStore;
    if (lastEventId !== undefined && store) {
      const sink = openSink(exchange, this.options, "a resumed event stream of an HTTP session");
      // Event ids are `<stream id>:<position>`: only this session's own streams are replayed.
      const streamId = lastEventId.slice(0, lastEventId.lastIndexOf(":"));
      const stream = this.resumable.get(streamId);
      if (!stream) {
        if (this.link && streamId.startsWith(`${this.sessionId}-`)) {
          const isGet = streamId.startsWith(`${this.sessionId}-get-`);
          const { options, follows } = this;
          return resumeShared(sink, lastEventId, isGet, {
            options,
            follows,
            continueGet: (on) => this.continueGet(on),
          });
        }
        sink.end();
        return;
      }
      return resumeOwn(sink, lastEventId, stream, this.options, (done) => this.resumable.delete(done.id));
    }
    if (this.standalone?.listening) {
      exchange.respond(409, { "content-type": "application/json", ...this.options.headers() }, conflict);
      return;
    }
    this.standalone ??= this.newStream(true);
    this.standalone.attach(openSink(exchange, this.options, "the GET event stream of an HTTP session"));
  }

  /** Continues the GET stream on a resumed stream's sink, unless a client listens to it already. */
  private continueGet(sink: SseSink): void {
    if (this.standalone?.listening) {
      sink.end();
      return;
    }
    this.standalone ??= this.newStream(true);
    this.standalone.attach(sink, true);
  }

  send(message: JSONRPCMessage, relatedRequestId?: RequestId): void {
    if (this.closed) throw new McpError(ErrorCode.ConnectionClosed, "the HTTP session is closed");
    const link = this.link;
    if (link) {
      if ("method" in message && "id" in message) {
        message = { ...message, id: link.outgoingId(message.id) };
      } else if (link.saving && "id" in message) {
        // The state this request changed is kept before it is answered, or the answer says why not.
        messageJson(message);
        const answered = message as JSONRPCMessage & { id: RequestId };
        void link.saving.then(() => {
          if (this.closed) return;
          this.sendNow(link.saveError ? unkept(answered.id, link.saveError) : answered, relatedRequestId);
        });
        return;
      }
    }
    this.sendNow(message, relatedRequestId);
  }

  private sendNow(message: JSONRPCMessage, relatedRequestId: RequestId | undefined): void {
    const isResponse = "id" in message && !("method" in message);
    const key = isResponse ? (message as { id: RequestId }).id : relatedRequestId;
    const post = key === undefined ? undefined : this.byRequest.get(key);
    // Serialized before anything changes: a message that cannot be throws, and leaves all as it was.
    const json = messageJson(message);
    // Answers always as JSON (`responseMode: "json"`): what comes before them goes on the GET stream.
    if (!post || (!isResponse && this.options.responseMode === "json")) {
      // The GET stream may be held by another replica.
      if (this.link && !this.standalone?.listening) this.link.sendStandalone(message);
      else this.sendStandalone(message, json);
      return;
    }
    if (isResponse) {
      this.byRequest.delete(key!);
      post.open--;
    }
    this.answer(post, message, json, isResponse, isResponse && post.open === 0);
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
    this.link?.close();
    for (const stop of this.follows) stop();
    this.follows.clear();
    for (const post of new Set(this.byRequest.values())) {
      post.exchange?.respond(404, { "content-type": "application/json", ...this.options.headers() }, gone);
    }
    this.byRequest.clear();
    for (const stream of this.resumable.values()) stream.detach();
    this.resumable.clear();
    this.standalone?.detach();
    this.handlers?.onclose();
  }

  private answer(
    post: PendingPost,
    message: JSONRPCMessage,
    json: string,
    isResponse: boolean,
    last: boolean,
  ): void {
    const batch = post.batch;
    if (!post.stream && this.options.responseMode !== "sse" && (last || (batch && isResponse))) {
      // Only responses, and nothing before them: plain JSON is cheaper than a stream.
      if (batch) batch.push({ message, json });
      if (last) {
        const headers = { "content-type": "application/json", ...this.options.headers() };
        post.exchange?.respond(200, headers, batch ? `[${batch.map((held) => held.json).join(",")}]` : json);
        post.exchange = undefined;
      }
    } else {
      const stream = this.openPostStream(post);
      // Something came before the batch's last response: those held go first, as events.
      if (batch) for (const held of batch.splice(0)) stream.write(held.message, held.json);
      stream.write(message, json);
      if (last) stream.finish();
    }
    if (last && this.options.closeWhenAnswered && this.byRequest.size === 0)
      queueMicrotask(() => void this.close());
  }

  private openPostStream(post: PendingPost): Stream {
    if (post.stream) return post.stream;
    const stream = this.newStream();
    post.stream = stream;
    if (post.requests) this.options.eventStore?.open?.(stream.id, post.requests);
    const sink = openSink(post.exchange!, this.options, "the event stream of a POST to an HTTP session");
    // Without resumability, a client that closes the stream has cancelled the request.
    if (this.options.closeWhenAnswered) sink.onClose(() => void this.close());
    stream.attach(sink);
    post.exchange = undefined;
    return stream;
  }

  private sendStandalone(message: JSONRPCMessage, json: string): void {
    // Before the client opens its GET stream, the stream keeps what it would have received.
    this.standalone ??= this.newStream(true);
    this.standalone.write(message, json);
  }

  /** Whether a request is being answered or a client is listening: such a session is not idle. */
  get busy(): boolean {
    if (this.byRequest.size > 0 || this.standalone?.listening) return true;
    for (const stream of this.resumable.values()) if (stream.listening) return true;
    return false;
  }

  private newStream(keepBacklog = false): Stream {
    // The GET stream's id says so, for a replica it is resumed on.
    const id = `${this.sessionId ?? "sessionless"}-${keepBacklog ? "get-" : ""}${nextStreamNumber()}`;
    const stream = new Stream(id, this.options, (ended) => this.resumable.delete(ended.id), keepBacklog);
    if (this.options.eventStore) this.resumable.set(stream.id, stream);
    return stream;
  }
}

const conflict = JSON.stringify({
  jsonrpc: "2.0",
  error: { code: ErrorCode.ServerError, message: "Conflict: this session already has a GET stream" },
});

const gone = JSON.stringify({
  jsonrpc: "2.0",
  error: { code: ErrorCode.ServerError, message: "The session ended before the request was answered" },
});
