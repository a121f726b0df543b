import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { isRequest, type JSONRPCMessage } from "../../jsonrpc/messages.js";
import type { Transport, TransportHandlers, TransportNetwork } from "../../protocol/transport.js";
import { httpStatusError, transportError } from "../http/shared/client-errors.js";
import { NodeHttpClient } from "../http/shared/node-request.js";
import {
  customHeaders,
  FetchHttpClient,
  type HeadersOption,
  type HttpClient,
  mediaType,
} from "../http/shared/request.js";
import { SseParser } from "../http/shared/sse.js";

/** How long `start()` waits for the `endpoint` event by default. */
export const DEFAULT_ENDPOINT_TIMEOUT = 30_000;

export interface SseClientOptions {
  /** The server's SSE endpoint (the GET that opens the stream). */
  url: string | URL;
  /** Sent with the GET and every POST; a function is called for each request. */
  headers?: HeadersOption;
  /** Send through this `fetch` instead of the default `node:http` client with keep-alive. */
  fetch?: typeof fetch;
  /** Milliseconds `start()` waits for the `endpoint` event. Default 30 000. */
  endpointTimeout?: number;
}

/**
 * The client side of the legacy HTTP+SSE transport (2024-11-05): one long GET event stream brings
 * the server's messages, after an `endpoint` event naming where to POST the client's. `start()`
 * resolves once that endpoint is known (it must have the SSE URL's origin). When the stream ends,
 * the connection is closed: the server ties its session to that stream.
 */
export class SseClientTransport implements Transport {
  readonly network: TransportNetwork;
  /** The HTTP+SSE transport exists only in the handshake era: a client probes no stateless server on it. */
  readonly eras = ["legacy"] as const;
  readonly url: URL;
  private readonly http: HttpClient;
  private readonly stream = new AbortController();
  private readonly posts = new Set<AbortController>();
  private handlers: TransportHandlers | undefined;
  private endpointUrl: URL | undefined;
  private settleStart: ((error?: Error) => void) | undefined;
  private closing: Promise<void> | undefined;
  private notified = false;

  constructor(private readonly options: SseClientOptions) {
    this.url = new URL(options.url);
    this.network = { transport: "tcp", url: this.url };
    this.http = options.fetch ? new FetchHttpClient(options.fetch) : new NodeHttpClient();
  }

  /** Where messages are POSTed, once the server said. */
  get endpoint(): URL | undefined {
    return this.endpointUrl;
  }

  start(handlers: TransportHandlers): Promise<void> {
    if (this.handlers) return Promise.reject(new Error("SseClientTransport was already started"));
    this.handlers = handlers;
    const timeout = this.options.endpointTimeout ?? DEFAULT_ENDPOINT_TIMEOUT;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settleStart?.(
          new McpError(
            ErrorCode.RequestTimeout,
            `${this.what("GET")} sent no endpoint event within ${timeout} ms: is this a legacy HTTP+SSE MCP server?`,
          ),
        );
      }, timeout);
      this.settleStart = (error) => {
        this.settleStart = undefined;
        clearTimeout(timer);
        if (error === undefined) {
          resolve();
          return;
        }
        this.stream.abort();
        reject(error);
      };
      void this.listen();
    });
  }

  send(message: JSONRPCMessage): void {
    if (this.closing || this.notified || !this.endpointUrl) {
      throw new McpError(ErrorCode.ConnectionClosed, "the SSE transport is not connected");
    }
    // Serialized here, so a message that cannot be throws to the sender.
    void this.post(this.endpointUrl, message, JSON.stringify(message));
  }

  /** Ends the stream and every POST in flight. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.settleStart?.(new McpError(ErrorCode.ConnectionClosed, "the SSE transport was closed"));
    this.end(undefined);
  }

  /** Frees everything and reports the end once. */
  private end(error: Error | undefined): void {
    this.stream.abort();
    for (const controller of this.posts) controller.abort();
    this.posts.clear();
    this.http.close();
    if (this.notified || !this.handlers) return;
    this.notified = true;
    this.handlers.onclose(error);
  }

  private what(method: string, url = this.url): string {
    return `${method} ${url.origin}${url.pathname}`;
  }

  private async listen(): Promise<void> {
    const what = this.what("GET");
    try {
      const headers = await customHeaders(this.options.headers);
      headers.accept = "text/event-stream";
      headers["cache-control"] = "no-cache";
      const response = await this.http.request({
        method: "GET",
        url: this.url,
        headers,
        signal: this.stream.signal,
      });
      if (response.status < 200 || response.status >= 300) throw await httpStatusError(response, what, false);
      const type = response.header("content-type");
      if (mediaType(type) !== "text/event-stream") {
        response.discard();
        throw new Error(`the response is ${type ?? "untyped"}, not an event stream`);
      }
      const parser = new SseParser((event) => {
        if (event.event === "endpoint") this.endpointEvent(event.data);
        else if (event.event === "message" && event.data !== "") this.messageEvent(event.data);
      });
      await response.read((text) => parser.push(text));
      throw new Error("the server ended the event stream");
    } catch (error) {
      if (this.stream.signal.aborted) return;
      const failure = transportError(error, what);
      if (this.settleStart) this.settleStart(failure);
      else this.end(failure);
    }
  }

  private endpointEvent(data: string): void {
    if (!this.settleStart) return;
    let url: URL;
    try {
      url = new URL(data.trim(), this.url);
    } catch {
      this.settleStart(
        new McpError(ErrorCode.InvalidRequest, `The server's endpoint event is not a URL: ${data}`),
      );
      return;
    }
    if (url.origin !== this.url.origin) {
      this.settleStart(
        new McpError(
          ErrorCode.InvalidRequest,
          `The server's endpoint ${url.origin} does not have the origin of the SSE URL (${this.url.origin})`,
        ),
      );
      return;
    }
    this.endpointUrl = url;
    this.settleStart();
  }

  private messageEvent(data: string): void {
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch {
      this.handlers?.onerror(
        new Error(`The server sent an SSE message that is not JSON: ${data.slice(0, 200)}`),
      );
      return;
    }
    if (!this.closing && !this.notified) this.handlers?.onmessage(message);
  }

  private async post(url: URL, message: JSONRPCMessage, body: string): Promise<void> {
    const controller = new AbortController();
    this.posts.add(controller);
    const what = this.what("POST", url);
    try {
      const headers = await customHeaders(this.options.headers);
      headers["content-type"] = "application/json";
      const response = await this.http.request({
        method: "POST",
        url,
        headers,
        body,
        signal: controller.signal,
      });
      if (response.status < 200 || response.status >= 300) throw await httpStatusError(response, what, false);
      response.discard();
    } catch (error) {
      if (controller.signal.aborted || this.closing || this.notified) return;
      const failure = transportError(error, what);
      if (isRequest(message))
        this.handlers?.onmessage({ jsonrpc: "2.0", id: message.id, error: failure.toJSON() });
      else this.handlers?.onerror(failure);
    } finally {
      this.posts.delete(controller);
    }
  }
}
