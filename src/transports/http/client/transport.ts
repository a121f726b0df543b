import { ErrorCode, McpError } from "../../../jsonrpc/errors.js";
import { messageJson } from "../../../jsonrpc/fixed-json.js";
import { MessageParser } from "../../../jsonrpc/message-parser.js";
import { isRequest, type JSONRPCMessage, type RequestId } from "../../../jsonrpc/messages.js";
import type { Transport, TransportHandlers, TransportNetwork } from "../../../protocol/transport.js";
import { TransientMap, TransientSet } from "../../../util/transient.js";
import { authorizedRequest } from "../shared/authorizer.js";
import { httpStatusError, transportError } from "../shared/client-errors.js";
import { NodeHttpClient } from "../shared/node-request.js";
import {
  Abort,
  customHeaders,
  FetchHttpClient,
  type HttpClient,
  type HttpRequest,
  type HttpResponse,
  mediaType,
} from "../shared/request.js";
import { endSession } from "./end-session.js";
import { jsonAnswer } from "./json-answer.js";
import { addModernHeaders, type ParamHeadersOf } from "./modern-headers.js";
import type { StreamableHttpClientOptions } from "./options.js";
import { followStandalone } from "./standalone.js";
import { type ReconnectOptions, reconnectPolicy, SseStream, type StreamHost } from "./stream.js";

/**
 * The client side of the Streamable HTTP transport (2025-03-26 and later). Each message is POSTed
 * to the MCP endpoint; the answer comes as JSON or as an SSE stream, which is resumed with GET and
 * `Last-Event-ID` when it drops before the answer. After the handshake a GET stream listens for
 * what the server sends outside any request.
 *
 * A request that fails at the HTTP level is answered locally with a JSON-RPC error (code -32603,
 * the status and the start of the body in the message). HTTP 404 to a request carrying the
 * session id is the session-expired error (see `isSessionExpired`): call `resetSession()`,
 * initialize again and retry.
 */
export class StreamableHttpClientTransport implements Transport {
  readonly network: TransportNetwork;
  readonly url: URL;
  /** The URL without its query, for error messages. */
  private readonly endpoint: string;
  private readonly http: HttpClient;
  private readonly reconnect: Required<ReconnectOptions>;
  private handlers: TransportHandlers | undefined;
  private session: string | undefined;
  private version: string | undefined;
  private initializeId: RequestId | undefined;
  /** Every request and stream in flight, aborted on close. */
  private readonly inflight = new TransientSet<{ abort(): void }>();
  /** The POST of each request in flight, by request id, so cancelling stops following it. */
  private readonly requests = new TransientMap<RequestId, Abort>();
  /** Parses every answer and event of this connection: the server repeats its `_meta`. */
  private readonly parser = new MessageParser();
  private standalone: AbortController | undefined;
  /** Set once the client speaks the stateless revision. */
  private modern: { paramHeaders?: ParamHeadersOf } | undefined;
  /** Settles once the GET stream is open after the handshake; sends made before wait for it. */
  private gate: Promise<void> | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: StreamableHttpClientOptions) {
    this.url = new URL(options.url);
    this.network = { transport: "tcp", url: this.url };
    this.endpoint = `${this.url.origin}${this.url.pathname}`;
    this.http = options.fetch ? new FetchHttpClient(options.fetch) : new NodeHttpClient();
    this.reconnect = reconnectPolicy(options.reconnect);
  }

  /** The session id the server assigned at initialization, if any. */
  get sessionId(): string | undefined {
    return this.session;
  }

  /** The protocol version sent in `MCP-Protocol-Version`, once negotiated. */
  get protocolVersion(): string | undefined {
    return this.version;
  }

  /** Sets the version sent in `MCP-Protocol-Version` (it is also read from the initialize result). */
  setProtocolVersion(version: string): void {
    this.version = version;
  }

  /**
   * Speaks the stateless revision from now on (2026-07-28): no session and no GET stream; every
   * POST carries `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and the `Mcp-Param-*` headers
   * `paramHeaders` computes for a message.
   */
  useModern(version: string, paramHeaders?: ParamHeadersOf): void {
    this.modern = { paramHeaders };
    this.version = version;
  }

  /** Back to the handshake era, after a stateless probe found a server that does not speak it. */
  resetModern(): void {
    this.modern = undefined;
    this.version = undefined;
  }

  /** Forgets the session (and its protocol version, and its GET stream), to initialize a new one. */
  resetSession(): void {
    this.session = undefined;
    this.version = undefined;
    this.standalone?.abort();
    this.standalone = undefined;
  }

  async start(handlers: TransportHandlers): Promise<void> {
    if (this.handlers) throw new Error("StreamableHttpClientTransport was already started");
    this.handlers = handlers;
  }

  send(message: JSONRPCMessage): void {
    if (this.closing || !this.handlers) {
      throw new McpError(ErrorCode.ConnectionClosed, "the Streamable HTTP transport is closed");
    }
    if ("method" in message && message.method === "notifications/cancelled") {
      const id = message.params?.requestId as RequestId | undefined;
      if (id !== undefined) this.requests.get(id)?.abort();
      // Statelessly, hanging up is the cancellation; there is no session to tell.
      if (this.modern) return;
    }
    // Serialized here, so a message that cannot be throws to the sender.
    const body = messageJson(message);
    if ("method" in message && message.method === "notifications/initialized") {
      // Until the GET stream is open, what the server sends outside a request could be lost:
      // later messages wait for it (a server without one answers 405 at once).
      this.gate = this.post(message, body);
    } else if (this.gate) {
      void this.gate.then(() => this.post(message, body));
    } else {
      void this.post(message, body);
    }
  }

  /** Aborts everything in flight, ends the session with DELETE (best effort), then reports the close. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    for (const controller of this.inflight) controller.abort();
    this.inflight.clear();
    this.requests.clear();
    this.standalone = undefined;
    if (this.session !== undefined && this.handlers) {
      const send = async (signal: AbortSignal) =>
        this.exchange({ method: "DELETE", url: this.url, headers: await this.headers(false), signal });
      await endSession(send, this.options.closeTimeout ?? 2000);
    }
    this.http.close();
    this.handlers?.onclose();
  }

  /**
   * Custom headers, then the session's (`initialize` starts a new session, so it carries none); a
   * promise only if the custom headers come from an asynchronous function.
   */
  private headers(initialize: boolean): Record<string, string> | Promise<Record<string, string>> {
    const custom = customHeaders(this.options.headers);
    if (initialize) return custom;
    return custom instanceof Promise
      ? custom.then((headers) => this.withSession(headers))
      : this.withSession(custom);
  }

  private withSession(headers: Record<string, string>): Record<string, string> {
    if (this.session !== undefined) headers["mcp-session-id"] = this.session;
    if (this.version !== undefined) headers["mcp-protocol-version"] = this.version;
    return headers;
  }

  /** Sends one request, authorized by the `authorizer` if there is one. */
  private exchange(request: HttpRequest): Promise<HttpResponse> {
    return authorizedRequest(this.http, request, this.options.authorizer);
  }

  private what(method: string): string {
    return `${method} ${this.endpoint}`;
  }

  private async post(message: JSONRPCMessage, body: string): Promise<void> {
    const abort = new Abort();
    this.inflight.add(abort);
    const requestId = isRequest(message) ? message.id : undefined;
    if (requestId !== undefined) this.requests.set(requestId, abort);
    const initialize = "method" in message && message.method === "initialize";
    if (initialize) this.initializeId = requestId;
    try {
      const given = this.headers(initialize);
      const headers = given instanceof Promise ? await given : given;
      if (this.modern) addModernHeaders(headers, message, this.modern.paramHeaders);
      headers["content-type"] = "application/json";
      headers.accept = "application/json, text/event-stream";
      const response = await this.exchange({ method: "POST", url: this.url, headers, body, abort });
      if (response.status < 200 || response.status >= 300) {
        throw await httpStatusError(response, this.what("POST"), headers["mcp-session-id"] !== undefined);
      }
      // The answer to initialize starts the session (servers without sessions send no id).
      if (initialize) this.session = response.header("mcp-session-id");
      if (requestId === undefined) {
        response.discard();
        if ("method" in message && message.method === "notifications/initialized") await this.listen();
        return;
      }
      await this.answer(requestId, response, abort);
    } catch (error) {
      if (abort.aborted || this.closing) return;
      this.fail(message, transportError(error, this.what("POST")));
    } finally {
      this.inflight.delete(abort);
      if (requestId !== undefined && this.requests.get(requestId) === abort) this.requests.delete(requestId);
    }
  }

  /** Reads the answer to a request: one JSON body, or an event stream followed to the response. */
  private async answer(id: RequestId, response: HttpResponse, abort: Abort): Promise<void> {
    const type = mediaType(response.header("content-type"));
    if (type === "text/event-stream") {
      const end = await new SseStream(this.host(), abort.signal, id).run(response);
      if (end.kind === "failed") throw end.error;
      return;
    }
    if (type !== "application/json") {
      response.discard();
      throw new Error(`the server answered with ${type || "no content type"}, not JSON or an event stream`);
    }
    const { messages, answered } = await jsonAnswer(id, response, this.parser, this.options.maxMessageBytes);
    for (const message of messages) {
      if (this.closing) return;
      this.deliver(message);
    }
    if (!answered) throw new Error(`the server's JSON response holds no response to request ${id}`);
  }

  /** Opens the standalone GET stream; resolves once the server answered it (or after 5 s). */
  private listen(): Promise<void> {
    if (this.standalone || this.closing) return Promise.resolve();
    const controller = new AbortController();
    this.standalone = controller;
    this.inflight.add(controller);
    const { opened, ended } = followStandalone(this.host(), controller.signal);
    void ended.then((end) => {
      this.inflight.delete(controller);
      if (this.standalone === controller) this.standalone = undefined;
      if (end.kind === "failed" && !this.closing) this.handlers?.onerror(end.error);
    });
    return opened;
  }

  private host(): StreamHost {
    return {
      reconnect: this.reconnect,
      get: async (lastEventId, signal) => {
        const headers = await this.headers(false);
        headers.accept = "text/event-stream";
        if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
        const response = await this.exchange({ method: "GET", url: this.url, headers, signal });
        return { response, what: this.what("GET"), sentSession: headers["mcp-session-id"] !== undefined };
      },
      parse: (text) => this.parser.parse(text),
      deliver: (message) => this.deliver(message),
      error: (error) => this.handlers?.onerror(error),
    };
  }

  /** Hands a message to the engine, noting the negotiated version from the initialize result. */
  private deliver(message: unknown): void {
    if (this.closing || !this.handlers) return;
    const { id, result } = message as {
      id?: unknown;
      result?: { protocolVersion?: unknown; serverInfo?: unknown };
    };
    if (
      id !== undefined &&
      id === this.initializeId &&
      typeof result?.protocolVersion === "string" &&
      typeof result.serverInfo === "object"
    ) {
      this.version = result.protocolVersion;
    }
    this.handlers.onmessage(message);
  }

  /** A request's failure becomes its error response; any other message's is reported. */
  private fail(message: JSONRPCMessage, error: McpError): void {
    if (this.closing || !this.handlers) return;
    if (isRequest(message))
      this.handlers.onmessage({ jsonrpc: "2.0", id: message.id, error: error.toJSON() });
    else this.handlers.onerror(error);
  }
}
