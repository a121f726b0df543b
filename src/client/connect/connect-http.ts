import { McpError } from "../../jsonrpc/errors.js";
import type { Transport } from "../../protocol/transport.js";
import type { HttpAuthorizer } from "../../transports/http/shared/authorizer.js";
import type { HttpTransportKind } from "../../transports/kinds.js";
import type { OAuthSession } from "../auth/session.js";
import type { HttpClientOptions } from "./options.js";

/** A failure that means "this server has no Streamable HTTP endpoint here": a 4xx answer. */
function isHttp4xx(error: unknown): boolean {
  const status =
    error instanceof McpError ? (error.data as { httpStatus?: number } | undefined)?.httpStatus : undefined;
  return status !== undefined && status >= 400 && status < 500;
}

/**
 * The transports to try for a URL, in order. Loaded on demand, so stdio clients never load the
 * HTTP code.
 */
export async function httpTransports(
  options: HttpClientOptions,
  authorizer?: HttpAuthorizer,
): Promise<(() => Promise<Transport>)[]> {
  const { url, headers, fetch, reconnect, endpointTimeout, maxMessageBytes } = options;
  const streamable = async () => {
    const { StreamableHttpClientTransport } = await import("../../transports/http/client/transport.js");
    return new StreamableHttpClientTransport({ url, headers, fetch, reconnect, authorizer, maxMessageBytes });
  };
  const sse = async () => {
    const { SseClientTransport } = await import("../../transports/legacy-sse/client.js");
    return new SseClientTransport({ url, headers, fetch, endpointTimeout });
  };
  const kinds: Record<HttpTransportKind, () => Promise<Transport>> = { "streamable-http": streamable, sse };
  return options.transport ? [kinds[options.transport]] : [streamable, sse];
}

/** The OAuth session of a connection: the one given, a new one for the options given, or none. */
export async function oauthSession(options: HttpClientOptions): Promise<OAuthSession | undefined> {
  const auth = options.auth;
  if (auth === undefined) return undefined;
  const { OAuthSession } = await import("../auth/session.js");
  return auth instanceof OAuthSession ? auth : new OAuthSession(options.url, auth, { fetch: options.fetch });
}

/** Whether to fall back from Streamable HTTP to legacy SSE after this connection failure. */
export function shouldFallBack(error: unknown): boolean {
  return isHttp4xx(error);
}
