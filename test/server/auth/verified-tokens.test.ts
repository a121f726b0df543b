/**
 * Verified JWT access tokens are kept so a repeated token is not checked again, but never beyond
 * the token's own expiry or the cache's `maxAge`, and never more than `maxTokens` of them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { VerifiedTokens } from "../../../src/server/auth/verified-tokens.js";
import { McpServer } from "../../../src/server/index.js";
import type { HttpServerHandle } from "../../../src/transports/http/server/index.js";
import { type AuthServer, startAuthServer } from "../../helpers/auth-server.js";

describe("VerifiedTokens", () => {
  const at = 1_000_000_000_000;
  const exp = at / 1000 + 60;

  it("keeps a token until it expires, with the leeway, and no longer", () => {
    const tokens = new VerifiedTokens<string>(10, 3600, 5);
    tokens.add("t", "claims", exp, at);
    expect(tokens.get("t", at + 64_999)).toBe("claims");
    expect(tokens.get("t", at + 65_000)).toBeUndefined();
    expect(tokens.size).toBe(0);
  });

  it("keeps a token for maxAge at most, and not at all without exp or once expired", () => {
    const tokens = new VerifiedTokens<string>(10, 10, 0);
    tokens.add("t", "claims", exp, at);
    expect(tokens.get("t", at + 9_999)).toBeDefined();
    expect(tokens.get("t", at + 10_000)).toBeUndefined();
    tokens.add("no-exp", "claims", undefined, at);
    tokens.add("gone", "claims", at / 1000 - 1, at);
    expect(tokens.size).toBe(0);
  });

  it("holds at most maxTokens, dropping the oldest", () => {
    const tokens = new VerifiedTokens<string>(3, 3600, 0);
    for (const name of ["a", "b", "c", "d"]) tokens.add(name, name, exp, at);
    expect(tokens.size).toBe(3);
    expect(tokens.get("a", at)).toBeUndefined();
    expect(tokens.get("d", at)).toBeDefined();
    expect(new VerifiedTokens(0, 3600, 0).size).toBe(0);
  });
});

describe("a protected server with the cache", () => {
  let as: AuthServer;
  let handle: HttpServerHandle;
  beforeAll(async () => {
    as = await startAuthServer();
    const server = new McpServer({ name: "protected", version: "1" }).tool("echo", {}, () => "ok");
    handle = await server.serveHttp({
      auth: { issuer: as.issuer, scopes: ["mcp:tools"], clockTolerance: 0 },
    });
  });
  afterAll(async () => {
    await handle?.close();
    await as?.close();
  });

  const now = () => Math.floor(Date.now() / 1000);
  const call = (token: string, query = "") =>
    fetch(handle.url + query, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "echo",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "echo",
          arguments: {},
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
          },
        },
      }),
    });

  it("refuses a token it accepted before once that token has expired", async () => {
    // Time is the subject: only the clock is faked (the servers' I/O and timers run as usual), so a
    // slow machine cannot expire the token early, and the test need not wait for it to expire.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const exp = now() + 60;
      const token = await as.sign({
        iss: as.issuer,
        sub: "alice",
        client_id: "agent",
        aud: handle.url,
        scope: "mcp:tools",
        iat: now(),
        exp,
      });
      expect((await call(token)).status).toBe(200);
      expect((await call(token)).status).toBe(200);
      // Known or not, a token also sent in the URI is refused.
      expect((await call(token, "?access_token=x")).status).toBe(400);
      vi.setSystemTime((exp + 1) * 1000);
      const refused = await call(token);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toContain("the token has expired");
    } finally {
      vi.useRealTimers();
    }
  });
});
