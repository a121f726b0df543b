import http from "node:http";
import https from "node:https";
import type { HttpClient, HttpRequest, HttpResponse } from "./request.js";

/**
 * The default `HttpClient`: `node:http`/`node:https` with a keep-alive agent of its own, so
 * consecutive requests reuse their connections. `close()` destroys every socket the agents hold.
 */
export class NodeHttpClient implements HttpClient {
  private httpAgent: http.Agent | undefined;
  private httpsAgent: https.Agent | undefined;
  private closed = false;

  request({ method, url, headers, body, signal }: HttpRequest): Promise<HttpResponse> {
    if (this.closed) return Promise.reject(new Error("the HTTP client is closed"));
    const secure = url.protocol === "https:";
    const agent = secure ? this.agent("https") : this.agent("http");
    const allHeaders =
      body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) };
    return new Promise((resolve, reject) => {
      const request = (secure ? https : http).request(
        url,
        { method, headers: allHeaders, agent, signal },
        (response) => resolve(new NodeResponse(response)),
      );
      request.on("error", reject);
      request.end(body);
    });
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
