import type { HttpClient, HttpRequest, HttpResponse } from "./request.js";

/** The request an authorizer is asked about: its method and URL. */
export interface AuthorizedRequest {
  method: HttpRequest["method"];
  url: URL;
}

/** What a `401` or `403` answer says about the authorization it wants. */
export interface AuthChallenge {
  status: number;
  /** The `WWW-Authenticate` header, if any. */
  wwwAuthenticate: string | undefined;
  /** The `DPoP-Nonce` header, if any (RFC 9449 §9). */
  dpopNonce: string | undefined;
}

/**
 * What an HTTP client transport asks of whatever authorizes its requests (the OAuth client):
 * headers for each request, and what to do when the server refuses one with `401` or `403`.
 */
export interface HttpAuthorizer {
  /** Headers that authorize one request (`Authorization`, and `DPoP` for bound tokens); may be empty. */
  headers(request: AuthorizedRequest): Promise<Record<string, string>>;
  /**
   * Called when the server answered `401` or `403`. Resolves `true` to send the request again with
   * fresh `headers()`, `false` to fail it with the HTTP error; rejects to fail it with that error.
   * `attempt` counts the earlier retries of the same request, from 0.
   */
  challenged(challenge: AuthChallenge, request: AuthorizedRequest, attempt: number): Promise<boolean>;
  /** Called when the server accepted a request (answered it with a 2xx status). */
  accepted?(request: AuthorizedRequest): void;
}

/** The most times one request is sent again after a challenge, whatever the authorizer says. */
const MAX_RETRIES = 6;

/**
 * Sends `request` through `http` with the authorizer's headers, and sends it again as long as the
 * authorizer answers a `401`/`403` with `true`. Without an authorizer it is `http.request`.
 */
export async function authorizedRequest(
  http: HttpClient,
  request: HttpRequest,
  authorizer: HttpAuthorizer | undefined,
): Promise<HttpResponse> {
  if (!authorizer) return http.request(request);
  const about: AuthorizedRequest = { method: request.method, url: request.url };
  for (let attempt = 0; ; attempt++) {
    const added = await authorizer.headers(about);
    const headers = { ...request.headers, ...added };
    const answer = await http.request({ ...request, headers });
    if (answer.status >= 200 && answer.status < 300) {
      authorizer.accepted?.(about);
      return answer;
    }
    // An error's body ends up in error messages: a server that echoes credentials does not leak them there.
    const response = redacted(answer, secretsOf(added));
    if (response.status !== 401 && response.status !== 403) return response;
    if (attempt >= MAX_RETRIES || request.abort?.aborted || request.signal?.aborted) return response;
    const body = await response.text().catch(() => "");
    const challenge: AuthChallenge = {
      status: response.status,
      wwwAuthenticate: response.header("www-authenticate"),
      dpopNonce: response.header("dpop-nonce"),
    };
    if (!(await authorizer.challenged(challenge, about, attempt))) return buffered(response, body);
    if (request.abort?.aborted || request.signal?.aborted) return buffered(response, body);
  }
}

/** The credentials in authorization headers: the token after the scheme, and whole proofs. */
function secretsOf(headers: Record<string, string>): string[] {
  const secrets: string[] = [];
  for (const name in headers) {
    const value = headers[name]!;
    const credential = name === "authorization" ? value.slice(value.indexOf(" ") + 1) : value;
    if (credential.length >= 8) secrets.push(credential);
  }
  return secrets;
}

/** The response with `secrets` replaced in its body. */
function redacted(response: HttpResponse, secrets: string[]): HttpResponse {
  if (secrets.length === 0) return response;
  const hide = (text: string) => secrets.reduce((out, secret) => out.split(secret).join("[redacted]"), text);
  return {
    status: response.status,
    statusText: response.statusText,
    header: (name) => response.header(name),
    text: async () => hide(await response.text()),
    read: (onText) => response.read((text) => onText(hide(text))),
    discard: () => response.discard(),
  };
}

/** A response whose body was already read. */
function buffered(response: HttpResponse, body: string): HttpResponse {
  return {
    status: response.status,
    statusText: response.statusText,
    header: (name) => response.header(name),
    text: async () => body,
    read: async (onText) => onText(body),
    discard: () => {},
  };
}
