// Authorization servers and protected MCP servers on 127.0.0.1 that record every request they get
// (headers and body), for tests of where the OAuth client sends its credentials: an honest one that
// issues what it is asked for, an attacker's one that does the same and keeps what it hears, and
// one whose answers a test writes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a recording server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  /** The body as text (form or JSON). */
  body: string;
}

/** An answer a test gives instead of the default one. */
export interface Answer {
  status: number;
  body: unknown;
}

export interface RecordingServer {
  origin: string;
  /** Every request, in order. */
  seen: RecordedRequest[];
  close(): Promise<void>;
}

export interface RecordingAuthorizationServer extends RecordingServer {
  /** The issuer identifier: the origin. */
  issuer: string;
  /** The requests to the token and registration endpoints. */
  credentialed(): RecordedRequest[];
}

async function recordingServer(
  answer: (request: RecordedRequest, origin: string) => Answer,
): Promise<RecordingServer & { server: Server }> {
  const seen: RecordedRequest[] = [];
  let origin = "";
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: RecordedRequest = {
        method: req.method ?? "GET",
        path: new URL(req.url ?? "/", origin).pathname,
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      seen.push(request);
      const { status, body } = answer(request, origin);
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "cache-control": "no-store",
      };
      if (status === 401 && request.path !== "/token") {
        headers["www-authenticate"] =
          `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
      }
      res.writeHead(status, headers).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    seen,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface AuthorizationServerBehaviour {
  /** A name that goes into what it issues: `<name>-client`, `<name>-access-token`, … */
  name: string;
  /** Seconds its access tokens live; default 3600. */
  expiresIn?: number;
  /** Answers the token endpoint instead of issuing tokens. */
  token?: (request: RecordedRequest) => Answer | undefined;
  /** Answers the registration endpoint instead of registering. */
  register?: (request: RecordedRequest) => Answer | undefined;
  /** More authorization server metadata. */
  metadata?: Record<string, unknown>;
}

/**
 * An authorization server that registers every client and issues tokens to every token request,
 * checking nothing: what it issues carries its name, so a test can tell where a credential came from.
 */
export async function recordingAuthorizationServer(
  behaviour: AuthorizationServerBehaviour,
): Promise<RecordingAuthorizationServer> {
  const { name } = behaviour;
  const server = await recordingServer((request, origin) => {
    if (request.path === "/.well-known/oauth-authorization-server") {
      return {
        status: 200,
        body: {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          code_challenge_methods_supported: ["S256"],
          grant_types_supported: [
            "authorization_code",
            "client_credentials",
            "refresh_token",
            "urn:ietf:params:oauth:grant-type:jwt-bearer",
          ],
          token_endpoint_auth_methods_supported: ["client_secret_basic", "private_key_jwt", "none"],
          token_endpoint_auth_signing_alg_values_supported: ["ES256"],
          ...behaviour.metadata,
        },
      };
    }
    if (request.path === "/register" && request.method === "POST") {
      return (
        behaviour.register?.(request) ?? {
          status: 201,
          body: {
            client_id: `${name}-client`,
            client_secret: `${name}-registered-secret`,
            token_endpoint_auth_method: "client_secret_basic",
          },
        }
      );
    }
    if (request.path === "/token" && request.method === "POST") {
      return (
        behaviour.token?.(request) ?? {
          status: 200,
          body: {
            access_token: `${name}-access-token-${server.seen.length}`,
            token_type: "Bearer",
            expires_in: behaviour.expiresIn ?? 3600,
            refresh_token: `${name}-refresh-token-${server.seen.length}`,
          },
        }
      );
    }
    return { status: 404, body: { error: "not_found" } };
  });
  return {
    origin: server.origin,
    issuer: server.origin,
    seen: server.seen,
    close: server.close,
    credentialed: () => server.seen.filter((r) => r.path === "/token" || r.path === "/register"),
  };
}

export interface ProtectedMcpServer extends RecordingServer {
  /** The MCP endpoint. */
  url: string;
  /** The authorization servers its protected-resource metadata names from now on. */
  pointAt(issuers: string[]): void;
}

/**
 * A protected MCP server that refuses every request with `401` and names, in its protected-resource
 * metadata, the authorization servers it is pointed at (none at all, without metadata, when
 * `metadata` is false: a server of the 2025-03-26 revision).
 */
export async function protectedMcpServer(
  issuers: string[],
  options: { metadata?: boolean } = {},
): Promise<ProtectedMcpServer> {
  let current = issuers;
  const server = await recordingServer((request, origin) => {
    if (request.path === "/.well-known/oauth-protected-resource/mcp" && options.metadata !== false) {
      return { status: 200, body: { resource: `${origin}/mcp`, authorization_servers: current } };
    }
    if (request.path === "/mcp") return { status: 401, body: { error: "unauthorized" } };
    return { status: 404, body: { error: "not_found" } };
  });
  return {
    origin: server.origin,
    url: `${server.origin}/mcp`,
    seen: server.seen,
    close: server.close,
    pointAt: (next) => {
      current = next;
    },
  };
}
