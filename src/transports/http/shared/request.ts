/**
 * The small HTTP client interface the HTTP transports are written against, with its `fetch`
 * implementation. The default implementation, over `node:http`/`node:https` with keep-alive, is in
 * node-request.ts.
 */

/** One HTTP request. Header names are lower case. */
export interface HttpRequest {
  method: "GET" | "POST" | "DELETE";
  url: URL;
  headers: Record<string, string>;
  body?: string;
  /** Aborting destroys the request and its response body. */
  signal?: AbortSignal;
  /** The same as `signal`, cheaper: for requests made by the thousand (each POST). */
  abort?: Abort;
}

/**
 * Stops one request, for a fraction of an `AbortController`'s cost: the `node:http` client hooks
 * `onAbort`, and a real `AbortSignal` is made only for a client that asks for one (`fetch`) or a
 * response that is an event stream.
 */
export class Abort {
  aborted = false;
  private controller: AbortController | undefined;
  private listener: (() => void) | undefined;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.controller?.abort();
    this.listener?.();
  }

  /** Calls `listener` when aborted (at once if already). One listener: the request's own. */
  onAbort(listener: () => void): void {
    if (this.aborted) listener();
    else this.listener = listener;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort();
    }
    return this.controller.signal;
  }
}

/** A response whose head has arrived; its body is read (or dropped) exactly once. */
export interface HttpResponse {
  readonly status: number;
  readonly statusText: string;
  /** A response header by lower-case name. */
  header(name: string): string | undefined;
  /** The whole body as UTF-8 text. */
  text(): Promise<string>;
  /** Streams the body as UTF-8 text; resolves at its end, rejects if the connection breaks. */
  read(onText: (text: string) => void): Promise<void>;
  /** Drops the rest of the body, keeping the connection for reuse when possible. */
  discard(): void;
}

/** Sends requests; `close()` frees every connection it holds. */
export interface HttpClient {
  request(request: HttpRequest): Promise<HttpResponse>;
  close(): void;
}

/** Custom headers: fixed, or computed for every request (for tokens that change). */
export type HeadersOption =
  | Record<string, string>
  | (() => Record<string, string> | Promise<Record<string, string>>);

/**
 * The custom headers of one request, with lower-case names: a fresh object the caller may add to;
 * a promise only when a function computes them asynchronously.
 */
export function customHeaders(
  option: HeadersOption | undefined,
): Record<string, string> | Promise<Record<string, string>> {
  if (option === undefined) return {};
  const headers = typeof option === "function" ? option() : option;
  return headers instanceof Promise ? headers.then(lowerCased) : lowerCased(headers);
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) out[name.toLowerCase()] = headers[name]!;
  return out;
}

/** The media type of a Content-Type header, without parameters, lower case. */
export function mediaType(contentType: string | undefined): string {
  if (contentType === undefined) return "";
  const semi = contentType.indexOf(";");
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

/** The start of a response body for an error message: one line, at most `max` characters. */
export function bodyExcerpt(body: string, max = 300): string {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** An `HttpClient` over any `fetch` implementation. */
export class FetchHttpClient implements HttpClient {
  constructor(private readonly fetchFn: typeof fetch) {}

  async request({ method, url, headers, body, signal, abort }: HttpRequest): Promise<HttpResponse> {
    const response = await this.fetchFn(url, {
      method,
      headers,
      body,
      signal: signal ?? abort?.signal,
      redirect: "manual",
    });
    return new FetchResponse(response);
  }

  close(): void {
    // The connections belong to the caller's fetch.
  }
}

class FetchResponse implements HttpResponse {
  constructor(private readonly response: Response) {}

  get status(): number {
    return this.response.status;
  }

  get statusText(): string {
    return this.response.statusText;
  }

  header(name: string): string | undefined {
    return this.response.headers.get(name) ?? undefined;
  }

  text(): Promise<string> {
    return this.response.text();
  }

  async read(onText: (text: string) => void): Promise<void> {
    const body = this.response.body;
    if (!body) return;
    const reader = body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        if (text) onText(text);
      }
      const rest = decoder.decode();
      if (rest) onText(rest);
    } finally {
      reader.releaseLock();
    }
  }

  discard(): void {
    this.response.body?.cancel().catch(() => {});
  }
}
