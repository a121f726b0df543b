import http from "node:http";
import https from "node:https";
import { extend } from "../../../util/extend.js";
import type { HttpClient, HttpRequest, HttpResponse } from "./request.js";

/**
 * The default `HttpClient`: `node:http`/`node:https` with a keep-alive agent of its own, so
 * consecutive requests reuse their connections. `close()` destroys every socket the agents hold.
 */
export class NodeHttpClient implements HttpClient {
  private httpAgent: http.Agent | undefined;
  private httpsAgent: https.Agent | undefined;
  private closed = false;
  private lastUrl: URL | undefined;
  private lastTarget: Target | undefined;

  request({ method, url, headers, body, signal, abort }: HttpRequest): Promise<HttpResponse> {
    if (this.closed) return Promise.reject(new Error("the HTTP client is closed"));
    const secure = url.protocol === "https:";
    const target = this.target(url);
    const options: http.RequestOptions = {
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      path: target.path,
      auth: target.auth,
      method,
      headers:
        body === undefined ? headers : extend(headers, { "content-length": String(Buffer.byteLength(body)) }),
      agent: secure ? this.agent("https") : this.agent("http"),
    };
    if (signal) options.signal = signal;
    return new Promise((resolve, reject) => {
      let response: http.IncomingMessage | undefined;
      const request = (secure ? https : http).request(options, (incoming) => {
        response = incoming;
        resolve(new NodeResponse(incoming));
      });
      request.on("error", reject);
      // Once the response is complete its socket may serve another request: it is left alone.
      abort?.onAbort(() => {
        if (!response?.complete) request.destroy(abortError());
      });
      request.end(body);
    });
  }

  /** The URL as request options, worked out once per URL (what `http.request(url)` does every time). */
  private target(url: URL): Target {
    if (this.lastUrl !== url) {
      this.lastUrl = url;
      this.lastTarget = {
        protocol: url.protocol,
        hostname: url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname,
        port: url.port === "" ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        auth:
          url.username || url.password
            ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
            : undefined,
      };
    }
    return this.lastTarget!;
  }

  private agent(kind: "http" | "https"): http.Agent {
    if (kind === "https") {
      this.httpsAgent ??= new https.Agent({ keepAlive: true });
      return this.httpsAgent;
    }
    this.httpAgent ??= new http.Agent({ keepAlive: true });
    return this.httpAgent;
  }

  close(): void {
    this.closed = true;
    this.httpAgent?.destroy();
    this.httpsAgent?.destroy();
  }
}

interface Target {
  protocol: string;
  hostname: string;
  port: number | undefined;
  path: string;
  auth: string | undefined;
}

function abortError(): Error {
  const error = new Error("The operation was aborted");
  error.name = "AbortError";
  return error;
}

class NodeResponse implements HttpResponse {
  private taken = false;

  constructor(private readonly response: http.IncomingMessage) {
    response.setEncoding("utf8");
  }

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  get statusText(): string {
    return this.response.statusMessage ?? "";
  }

  header(name: string): string | undefined {
    const value = this.response.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }

  async text(): Promise<string> {
    let text = "";
    await this.read((chunk) => {
      text += chunk;
    });
    return text;
  }

  read(onText: (text: string) => void): Promise<void> {
    if (this.taken) return Promise.reject(new Error("the response body was already read"));
    this.taken = true;
    const response = this.response;
    return new Promise((resolve, reject) => {
      let ended = false;
      response.on("data", (chunk: string) => {
        try {
          onText(chunk);
        } catch (error) {
          response.destroy(error as Error);
        }
      });
      response.once("end", () => {
        ended = true;
        resolve();
      });
      response.on("error", reject);
      response.once("close", () => {
        if (!ended) reject(new Error("the connection closed before the response ended"));
      });
    });
  }

  discard(): void {
    if (this.taken) return;
    this.taken = true;
    if (this.response.complete) return;
    // A finite body is drained, so its socket goes back to the pool; an event stream is dropped.
    this.response.on("error", () => {});
    if (/^\s*text\/event-stream/i.test(this.response.headers["content-type"] ?? "")) this.response.destroy();
    else this.response.resume();
  }
}
