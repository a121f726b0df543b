import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { addressClass } from "./address-class.js";
import { OAuthError } from "./errors.js";
import { checkingLookup } from "./resolve.js";
import { addressRefusal, type PeerPolicy } from "./url-policy.js";

/** Statuses whose responses have no body. */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * The OAuth client's own `fetch`, over `node:http`/`node:https`: a host name is resolved once,
 * every address it has is checked against `policy` (an IP literal is checked as written), and
 * the connection goes to the address that was checked. TLS still verifies the certificate
 * against the host name. It does what the OAuth client needs and no more:
 * - `input` is a URL (string or `URL`), not a `Request`; the body a string or `URLSearchParams`;
 * - redirects are never followed, whatever `init.redirect` says: a 3xx is returned as it is;
 * - `init.signal` aborts the request and its body;
 * - the body is read whole, and a body over `maxBody` bytes fails the request with an `OAuthError`;
 * - one connection per request, closed after it (a pooled socket could have been opened by
 *   other code, to an address no one checked).
 */
export function pinnedFetch(policy: PeerPolicy, maxBody: number): typeof fetch {
  const lookup = checkingLookup(policy);
  return (async (input: string | URL, init: RequestInit = {}) => {
    if (typeof input !== "string" && !(input instanceof URL)) {
      throw new TypeError("The OAuth client's fetch takes a URL, not a Request");
    }
    const url = new URL(input);
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError(`The OAuth client's fetch does not send to ${url.protocol} URLs`);
    }
    const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    if (isIP(hostname) !== 0) {
      // Node connects to an IP literal without a lookup: it is checked here instead.
      const why = addressRefusal(addressClass(hostname) ?? "reserved", policy);
      if (why) throw new OAuthError(`Refusing to connect to ${hostname}: ${why}`);
    }
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = requestBody(init.body, headers);
    if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
    return send(
      url,
      {
        protocol: url.protocol,
        hostname,
        port: url.port === "" ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: init.method ?? "GET",
        headers,
        agent: false,
        lookup,
      },
      body,
      init.signal ?? undefined,
      maxBody,
    );
  }) as typeof fetch;
}

/** The request body as text, with the form content type for `URLSearchParams` (as `fetch` sets it). */
function requestBody(body: RequestInit["body"], headers: Record<string, string>): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof URLSearchParams) {
    headers["content-type"] ??= "application/x-www-form-urlencoded;charset=UTF-8";
    return body.toString();
  }
  throw new TypeError("The OAuth client's fetch sends only a string or URLSearchParams body");
}

function send(
  url: URL,
  options: http.RequestOptions,
  body: string | undefined,
  signal: AbortSignal | undefined,
  maxBody: number,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let settled = false;
    const onAbort = () => fail(signal?.reason);
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      request.destroy();
      reject(error);
    };
    const tooLarge = () => new OAuthError(`${url.href.slice(0, 200)} is larger than ${maxBody} bytes`);
    const request = (url.protocol === "https:" ? https : http).request(options, (incoming) => {
      const status = incoming.statusCode ?? 0;
      if (Number(incoming.headers["content-length"] ?? "0") > maxBody) {
        fail(tooLarge());
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      incoming.on("data", (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > maxBody) fail(tooLarge());
        else chunks.push(chunk);
      });
      incoming.on("error", fail);
      incoming.on("close", () => {
        if (!incoming.complete) fail(new Error(`The connection to ${url.host} closed mid-response`));
      });
      incoming.on("end", () => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        try {
          resolve(response(url, status, incoming, chunks));
        } catch (error) {
          reject(error);
        }
      });
    });
    request.on("error", fail);
    signal?.addEventListener("abort", onAbort, { once: true });
    request.end(body);
  });
}

function response(url: URL, status: number, incoming: http.IncomingMessage, chunks: Buffer[]): Response {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const result = new Response(NO_BODY.has(status) ? null : Buffer.concat(chunks), {
    status,
    statusText: incoming.statusMessage ?? "",
    headers,
  });
  Object.defineProperty(result, "url", { value: url.href });
  return result;
}
