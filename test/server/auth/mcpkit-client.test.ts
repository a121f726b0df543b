/**
 * mcpkit's own OAuth client (`McpClient.connect({ url, auth })`) against a protected mcpkit server,
 * in both eras, with oidc-provider between them: the sign-in the 401 leads to, calls, a step-up
 * from a tool's 403 `insufficient_scope`, the client credentials grant, and DPoP-bound tokens
 * against a server that requires them with nonces.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OAuthSession } from "../../../src/client/auth/session.js";
import { McpClient } from "../../../src/client/index.js";
import { McpServer } from "../../../src/server/index.js";
import type { HttpServerHandle } from "../../../src/transports/http/server/index.js";
import { AGENT, APP, type AuthServer, startAuthServer } from "../../helpers/auth-server.js";

const ERAS = ["2025-11-25", "2026-07-28"] as const;

let as: AuthServer;
let handle: HttpServerHandle;
let dpopHandle: HttpServerHandle;

function notesServer() {
  return new McpServer({ name: "notes", version: "1" })
    .tool("whoami", {}, (_args, ctx) => `${ctx.auth?.subject} (${ctx.auth?.scopes.join(" ")})`)
    .tool("write_note", { scopes: ["files:write"] }, (_args, ctx) => `written for ${ctx.auth?.subject}`)
    .tool("bound", {}, (_args, ctx) => (ctx.auth?.jkt ? "bound to a key" : "bearer"));
}

beforeAll(async () => {
  as = await startAuthServer();
  handle = await notesServer().serveHttp({ auth: { issuer: as.issuer, scopes: ["mcp:tools"] } });
  dpopHandle = await notesServer().serveHttp({
    auth: { issuer: as.issuer, scopes: ["mcp:tools"], dpop: { required: true, nonce: true } },
  });
});

afterAll(async () => {
  await handle?.close();
  await dpopHandle?.close();
  await as?.close();
});

describe("mcpkit's OAuth client against a protected mcpkit server", () => {
  for (const era of ERAS) {
    it(`signs the user in on 401, calls, and steps up on 403 (${era})`, async () => {
      const before = as.authorizations;
      const client = await McpClient.connect({
        url: handle.url,
        transport: "streamable-http",
        protocolVersion: era,
        auth: {
          clientId: APP.clientId,
          redirectUri: APP.redirectUri,
          dpop: false,
          onAuthorizationUrl: async (url) => `${APP.redirectUri}?${await as.authorize(url)}`,
        },
      });
      try {
        expect(client.protocolVersion).toBe(era);
        expect((await client.callTool("whoami", {})).text()).toMatch(/^alice \(.*mcp:tools.*\)$/);
        expect(as.authorizations).toBe(before + 1);
        expect((await client.callTool("write_note", {})).text()).toBe("written for alice");
        expect(as.authorizations).toBe(before + 2);
      } finally {
        await client.close();
      }
    });
  }

  it("keeps counting step-ups when other requests go through between them", async () => {
    // A server that accepts initialize but refuses tools/list for its scope: the first request's
    // refusal, a success of another, then the next request's refusals. That success must not
    // give the next one a fresh round of authorizations (at most 3 in a row, the default).
    const session = new OAuthSession(handle.url, {
      clientId: AGENT.clientId,
      clientSecret: AGENT.clientSecret,
      issuer: as.issuer,
      grant: { type: "client_credentials" },
      scopes: ["mcp:tools"],
      dpop: false,
    });
    const unauthorized = await fetch(handle.url, { method: "POST" });
    const first = {
      status: 401,
      wwwAuthenticate: unauthorized.headers.get("www-authenticate") ?? undefined,
      dpopNonce: undefined,
    };
    const forbidden = {
      status: 403,
      wwwAuthenticate: 'Bearer error="insufficient_scope", scope="mcp:tools"',
      dpopNonce: undefined,
    };
    const request = () => ({ method: "POST" as const, url: new URL(handle.url) });
    const discover = request();
    await session.headers(discover);
    await expect(session.challenged(first, discover, 0)).resolves.toBe(true);
    await session.headers(discover);
    await expect(session.challenged(forbidden, discover, 1)).resolves.toBe(true);
    const initialize = request();
    await session.headers(initialize);
    session.accepted(initialize);
    const list = request();
    await session.headers(list);
    await expect(session.challenged(forbidden, list, 0)).resolves.toBe(true);
    await session.headers(list);
    await expect(session.challenged(forbidden, list, 1)).rejects.toThrow("after 3 authorizations");
  });

  it("gets its own token with client credentials", async () => {
    const client = await McpClient.connect({
      url: handle.url,
      auth: {
        clientId: AGENT.clientId,
        clientSecret: AGENT.clientSecret,
        issuer: as.issuer,
        grant: { type: "client_credentials" },
        scopes: ["mcp:tools"],
        dpop: false,
      },
    });
    try {
      expect((await client.callTool("whoami", {})).text()).toBe("agent (mcp:tools)");
    } finally {
      await client.close();
    }
  });

  for (const era of ERAS) {
    it(`presents DPoP-bound tokens with fresh proofs and the server's nonces (${era})`, async () => {
      const client = await McpClient.connect({
        url: dpopHandle.url,
        transport: "streamable-http",
        protocolVersion: era,
        auth: {
          clientId: AGENT.clientId,
          clientSecret: AGENT.clientSecret,
          issuer: as.issuer,
          grant: { type: "client_credentials" },
          scopes: ["mcp:tools"],
          dpop: true,
        },
      });
      try {
        expect((await client.callTool("bound", {})).text()).toBe("bound to a key");
        expect((await client.callTool("bound", {})).text()).toBe("bound to a key");
      } finally {
        await client.close();
      }
    });
  }
});
