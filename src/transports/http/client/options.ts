import type { HttpAuthorizer } from "../shared/authorizer.js";
import type { HeadersOption } from "../shared/request.js";
import type { ReconnectOptions } from "./stream.js";

/** Options of the client side of the Streamable HTTP transport. */
export interface StreamableHttpClientOptions {
  /** The server's MCP endpoint. */
  url: string | URL;
  /** Sent with every request (POST, GET and DELETE); a function is called for each request. */
  headers?: HeadersOption;
  /** Send through this `fetch` instead of the default `node:http` client with keep-alive. */
  fetch?: typeof fetch;
  /** How lost SSE streams are resumed. */
  reconnect?: ReconnectOptions;
  /** The most the `DELETE` of the session may take on `close()`, in ms. Default 2000. */
  closeTimeout?: number;
  /** Authorizes every request and answers `401`/`403` challenges (the OAuth client). */
  authorizer?: HttpAuthorizer;
  /**
   * Longest JSON response body accepted, in bytes: a longer one (by its `Content-Length`, else as
   * it arrives) is dropped unparsed, and its request fails with `-32603` and
   * `data: { size, maxMessageBytes }`. Events of an SSE response are not bounded by it. Default: none.
   */
  maxMessageBytes?: number;
}
