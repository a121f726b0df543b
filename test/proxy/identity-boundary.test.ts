/**
 * The proxy as an OAuth boundary, with a real authorization server: its front takes tokens meant for
 * it (`serveHttp({ auth })`); upstream it presents tokens of its own, its client credentials for
 * its own requests and, for each caller, a token exchanged for the caller's (RFC 8693) with the
 * upstream as audience; the caller's token never reaches the upstream (the upstream fixture records
 * every header it gets). Access rules by scope and subject sit on top of the tool filters, and the
 * audit log names the verified subject.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import type { AuditRecord } from "../../src/proxy/index.js";
import { createProxyServer, type ProxyServer, type UpstreamAuth } from "../../src/proxy/index.js";
import { McpServer } from "../../src/server/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import { type AuthServer, PROXY, startAuthServer } from "../helpers/auth-server.js";
import { TestHttpServer, toWebRequest, writeWebResponse } from "../helpers/sdk-http-servers.js";

let as: AuthServer;
/** The upstream: a protected mcpkit server behind a recorder of every request's headers. */
let recorder: TestHttpServer;
let upstream: McpServer;
let upstreamUrl: string;
let proxy: ProxyServer;
let front: HttpServerHandle;
const audit: AuditRecord[] = [];
/** Every token a caller presented to the proxy. */
const callerTokens: string[] = [];

/** The proxy's own token for the upstream (client credentials), fetched once. */
let ownToken: Promise<string> | undefined;
const upstreamAuth: UpstreamAuth = ({ caller }) => {
  if (caller === undefined) {
    ownToken ??= as.token({ resource: upstreamUrl, scope: "mcp:tools", client: PROXY });
    return ownToken;
  }
  return as.exchange({ subjectToken: caller.token, resource: upstreamUrl, scope: caller.scopes.join(" ") });
};

beforeAll(async () => {
  as = await startAuthServer();
  recorder = await new TestHttpServer(async (req, res) =>
    writeWebResponse(await upstream.fetch(await toWebRequest(req, res)), res),
  ).listen("/mcp");
  upstreamUrl = recorder.url;
  upstream = new McpServer(
    { name: "notes", version: "1" },
    { http: { auth: { issuer: as.issuer, resource: upstreamUrl } } },
  )
    .tool(
      "whoami",
      {},
      (_args, ctx) => `${ctx.auth?.subject} through ${ctx.auth?.clientId} (${ctx.auth?.scopes.join(" ")})`,
    )
    .tool(
      "write_note",
      { input: { type: "object", properties: { text: { type: "string" } } } },
      () => "written",
    )
    .tool("admin_reset", {}, () => "reset");
  proxy = await createProxyServer({
    upstream: { url: upstreamUrl },
    name: "notes",
    upstreamAuth,
    access: [
      { tools: "notes/write_*", scopes: ["files:write"] },
      { tools: "admin_*", subjects: ["alice"] },
    ],
    policy: [{ tools: "notes/write_note", callers: ["alice"], action: "deny" }],
    audit: (record) => {
      audit.push(record);
    },
  });
  front = await proxy.serveHttp({ auth: { issuer: as.issuer, scopes: ["mcp:tools"] } });
});

afterAll(async () => {
  await front?.close();
  await proxy?.close();
  await upstream?.close();
  await recorder?.close();
  await as?.close();
});

async function connectAs(token: string): Promise<McpClient> {
  callerTokens.push(token);
  return McpClient.connect({ url: front.url, headers: { authorization: `Bearer ${token}` } });
}

describe("the proxy's front", () => {
  it("takes only tokens meant for the proxy", async () => {
    const none = await fetch(front.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain(
      `resource_metadata="${new URL(front.url).origin}/`,
    );
    // A token for the upstream is not a token for the proxy.
    const forUpstream = await as.token({ resource: upstreamUrl, scope: "mcp:tools" });
    await expect(connectAs(forUpstream)).rejects.toThrow(/Unauthorized: the token is not meant for/);
  });
});

describe("upstream, the proxy speaks for itself", () => {
  it("exchanges each caller's token for one meant for the upstream, naming the same subject", async () => {
    const token = await as.token({ resource: front.url, scope: "mcp:tools" });
    const client = await connectAs(token);
    try {
      expect((await client.callTool("whoami", {})).text()).toBe("agent through mcp-proxy (mcp:tools)");
      const alice = await connectAs(
        await as.sign({
          iss: as.issuer,
          sub: "alice",
          aud: front.url,
          client_id: "mcp-app",
          scope: "mcp:tools files:write",
          iat: Math.floor(Date.now() / 1000),
          exp: Math.floor(Date.now() / 1000) + 600,
        }),
      );
      try {
        expect((await alice.callTool("whoami", {})).text()).toBe(
          "alice through mcp-proxy (mcp:tools files:write)",
        );
      } finally {
        await alice.close();
      }
      expect(as.exchanges).toEqual(
        expect.arrayContaining([
          { subject: "agent", resource: upstreamUrl },
          { subject: "alice", resource: upstreamUrl },
        ]),
      );
    } finally {
      await client.close();
    }
  });

  it("never forwards a caller's token upstream", () => {
    const sent = recorder.seen.map((request) => String(request.headers.authorization ?? ""));
    expect(sent.length).toBeGreaterThan(0);
    for (const authorization of sent) {
      expect(authorization).toMatch(/^Bearer /);
      for (const token of callerTokens) expect(authorization).not.toContain(token);
    }
    for (const request of recorder.seen) {
      for (const value of Object.values(request.headers)) {
        for (const token of callerTokens) expect(String(value)).not.toContain(token);
      }
    }
  });

  it("refuses an upstreamAuth that hands back the caller's token", async () => {
    const passthrough = await createProxyServer({
      upstream: { url: upstreamUrl },
      upstreamAuth: ({ caller }) => (caller ? caller.token : ownToken),
    });
    const http = await passthrough.serveHttp({ auth: { issuer: as.issuer } });
    const seenBefore = recorder.seen.length;
    const token = await as.token({ resource: http.url, scope: "mcp:tools" });
    callerTokens.push(token);
    const client = await McpClient.connect({ url: http.url, headers: { authorization: `Bearer ${token}` } });
    try {
      await expect(client.callTool("whoami", {})).rejects.toThrow(/token passthrough is forbidden/);
      const newHeaders = recorder.seen
        .slice(seenBefore)
        .map((request) => String(request.headers.authorization));
      expect(newHeaders.every((value) => !value.includes(token))).toBe(true);
    } finally {
      await client.close();
      await http.close();
      await passthrough.close();
    }
  });
});

describe("access rules and the audit log", () => {
  it("needs the scope a rule gives a tool, refused by a 403 before anything is forwarded", async () => {
    const token = await as.token({ resource: front.url, scope: "mcp:tools" });
    const client = await connectAs(token);
    try {
      const upstreamCalls = () => recorder.seen.length;
      const before = upstreamCalls();
      await expect(client.callTool("write_note", { text: "hi" })).rejects.toThrow(/needs scope files:write/);
      expect(upstreamCalls()).toBe(before);
      await expect(client.callTool("admin_reset", {})).rejects.toThrow(/not for subject agent/);
    } finally {
      await client.close();
    }
  });

  it("lists to each caller only the tools the access rules and the policy let it call", async () => {
    const agent = await connectAs(await as.token({ resource: front.url, scope: "mcp:tools" }));
    const alice = await connectAs(
      await as.sign({
        iss: as.issuer,
        sub: "alice",
        aud: front.url,
        client_id: "mcp-app",
        scope: "mcp:tools files:write",
        iat: Math.floor(Date.now() / 1000),
        exp: Math.floor(Date.now() / 1000) + 600,
      }),
    );
    try {
      const names = async (client: McpClient) => (await client.listTools()).map((tool) => tool.name).sort();
      expect(await names(agent)).toEqual(["whoami", "write_note"]);
      expect(await names(alice)).toEqual(["admin_reset", "whoami"]);
    } finally {
      await agent.close();
      await alice.close();
    }
  });

  it("records the verified subject of every call", () => {
    const calls = audit.map(({ tool, subject, clientId, outcome }) => ({ tool, subject, clientId, outcome }));
    expect(calls).toEqual(
      expect.arrayContaining([
        { tool: "whoami", subject: "agent", clientId: "agent", outcome: "ok" },
        { tool: "whoami", subject: "alice", clientId: "mcp-app", outcome: "ok" },
        { tool: "admin_reset", subject: "agent", clientId: "agent", outcome: "error" },
      ]),
    );
    expect(calls.some((call) => call.tool === "write_note")).toBe(false);
  });
});
