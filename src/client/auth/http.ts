import * as oauth from "oauth4webapi";
import { OAuthError } from "./errors.js";
import { pinnedFetch } from "./pinned-fetch.js";
import type { PeerPolicy } from "./url-policy.js";

/** The most of an authorization server's (or metadata) response the client reads. */
const MAX_BODY = 1024 * 1024;

/** Statuses whose responses have no body. */
const NO_BODY = new Set([101, 204, 205, 304]);

/** The options oauth4webapi takes for one request. */
interface RequestOptions {
  [oauth.customFetch]: typeof fetch;
  [oauth.allowInsecureRequests]: boolean;
  signal: AbortSignal;
}

/**
 * The HTTP side of the OAuth client: every request to metadata documents and authorization
 * servers goes through here. Redirects are never followed (so nothing is sent to a host no one
 * checked), every request has a deadline, and bodies are read up to a cap.
 *
 * Without a `fetch` of the user's, requests go through `pinnedFetch`: every host name is resolved
 * and each of its addresses checked against `policy` before connecting, and the connection goes
 * to the address checked. With one, that fetch sends them as it likes: URLs from peers are still
 * checked as written (`checkPeerUrl`), but what their names resolve to is up to that fetch.
 */
export class OAuthHttp {
  readonly fetch: typeof fetch;

  constructor(
    base: typeof fetch | undefined,
    private readonly timeout: number,
    /** What the client may connect to; discovery checks peers' URLs against it too. */
    readonly policy: PeerPolicy,
  ) {
    // The client's own fetch never follows redirects and caps bodies by itself.
    this.fetch =
      base === undefined
        ? pinnedFetch(policy, MAX_BODY)
        : ((async (input: Parameters<typeof fetch>[0], init?: RequestInit) =>
            capped(await base(input, { ...init, redirect: "manual" }))) as typeof fetch);
  }

  /** What oauth4webapi needs to send a request to `url` (whose scheme was checked already). */
  options(url: URL | string | undefined): RequestOptions {
    const insecure = url !== undefined && new URL(url).protocol === "http:";
    return {
      [oauth.customFetch]: this.fetch,
      [oauth.allowInsecureRequests]: insecure,
      signal: AbortSignal.timeout(this.timeout),
    };
  }

  /** GETs a JSON document; `undefined` when the answer is not a 200 or the request fails. */
  async getJson(url: URL): Promise<Response | undefined> {
    try {
      const response = await this.fetch(url, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(this.timeout),
      });
      if (response.status === 200) return response;
      await response.body?.cancel();
      return undefined;
    } catch (error) {
      if (error instanceof OAuthError) throw error;
      return undefined;
    }
  }
}

/** The response with its body read, up to `MAX_BODY` bytes. */
async function capped(response: Response): Promise<Response> {
  if (NO_BODY.has(response.status) || !response.body) return response;
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY) {
    await response.body.cancel();
    throw new OAuthError(`${response.url || "A response"} is larger than ${MAX_BODY} bytes`);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY) {
      await reader.cancel();
      throw new OAuthError(`${response.url || "A response"} is larger than ${MAX_BODY} bytes`);
    }
    chunks.push(value);
  }
  const body = Buffer.concat(chunks);
  const copy = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(copy, "url", { value: response.url });
  return copy;
}
