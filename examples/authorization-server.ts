// A development authorization server for protected-server.ts: oidc-provider on 127.0.0.1, one
// client ("agent") that gets tokens for itself with the client_credentials grant, JWT access tokens
// for whatever resource (RFC 8707) it asks. Use your real one (Auth0, Keycloak, Entra ID…) instead.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Provider } from "oidc-provider";

export const CLIENT = { id: "agent", secret: "agent-secret-change-me" };

export async function startAuthorizationServer(): Promise<{ issuer: string; close(): Promise<void> }> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
        scope: "notes:read notes:write",
      },
    ],
    scopes: ["notes:read", "notes:write"],
    ttl: { ClientCredentials: 600 },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope: "notes:read notes:write",
          audience: resource,
          accessTokenFormat: "jwt",
          jwt: { sign: { alg: "RS256" } },
        }),
      },
    },
  });
  http.on("request", provider.callback());
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
