/**
 * What a protected server knows of its caller: `ctx.auth` in handlers of both eras, sessions bound
 * to the caller that opened them, the scopes tools, resources and prompts declare (checked before
 * their handlers, over HTTP with a 403 and elsewhere in band), and lists that show each caller only
 * what it may use with `hideUnauthorized`. Tokens come from a real authorization server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../../src/client/index.js";
import { McpError } from "../../../src/jsonrpc/errors.js";
import { McpServer, type ServerOptions } from "../../../src/server/index.js";
import type { HttpServerHandle } from "../../../src/transports/http/server/index.js";
import { type AuthServer, OTHER_AGENT, startAuthServer } from "../../helpers/auth-server.js";
import { connectInMemory } from "../../helpers/connect.js";

const ERAS = ["2025-11-25", "2026-07-28"] as const;
const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

let as: AuthServer;
beforeAll(async () => {
  as = await startAuthServer();
});
afterAll(async () => {
  await as?.close();
});

/** A server with one of each primitive behind a scope, and handlers that record they ran. */
function newServer(ran: string[], options: ServerOptions = {}) {
  const record = <T>(name: string, value: T): T => {
    ran.push(name);
    return value;
  };
  return new McpServer({ name: "notes", version: "1" }, options)
    .tool("whoami", {}, (_args, ctx) => {
      ran.push("whoami");
      const auth = ctx.auth!;
      return JSON.stringify({ auth, tokenKept: auth.token.length > 0 });
    })
    .tool("delete_note", { scopes: ["files:write"] }, () => {
      ran.push("delete_note");
      return "deleted";
    })
    .resource("notes://public", { name: "public" }, () => "everyone")
    .resource("notes://private", { name: "private" }, () => record("private", "secret"), {
      scopes: ["notes:read"],
    })
    .resourceTemplate(
      "notes://by-id/{id}",
      { name: "by id" },
      (_uri, { id }) => record("by-id", `note ${id}`),
      { scopes: ["notes:read"], list: () => [{ uri: "notes://by-id/1", name: "note 1" }] },
    )
    .prompt(
      "summarize",
      { scopes: ["notes:read"], arguments: { topic: { complete: () => record("complete", ["work"]) } } },
      () => record("summarize", "Summarize my notes"),
    )
    .prompt("hello", {}, () => "Hello");
}

async function serve(ran: string[], hideUnauthorized = false) {
  const handle = await newServer(ran, { hideUnauthorized }).serveHttp({
    auth: { issuer: as.issuer, scopes: ["mcp:tools"] },
  });
  return handle;
}

const connect = (
  handle: HttpServerHandle,
  token: string,
  protocolVersion: (typeof ERAS)[number],
  challenges?: string[],
) =>
  McpClient.connect({
    url: handle.url,
    transport: "streamable-http",
    protocolVersion,
    headers: { authorization: `Bearer ${token}` },
    // Records each 403's challenge: the endpoint refused the request before the server saw it.
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (response.status === 403) challenges?.push(response.headers.get("www-authenticate") ?? "");
      return response;
    },
  });

describe("ctx.auth", () => {
  const ran: string[] = [];
  let handle: HttpServerHandle;
  beforeAll(async () => {
    handle = await serve(ran);
  });
  afterAll(() => handle?.close());

  for (const era of ERAS) {
    it(`is the verified caller, without its token in JSON (${era})`, async () => {
      const token = await as.token({ resource: handle.url, scope: "mcp:tools notes:read" });
      const client = await connect(handle, token, era);
      try {
        const seen = JSON.parse((await client.callTool("whoami", {})).text());
        expect(seen.tokenKept).toBe(true);
        expect(seen.auth).toMatchObject({
          subject: "agent",
          clientId: "agent",
          scopes: ["mcp:tools", "notes:read"],
          issuer: as.issuer,
          claims: { aud: handle.url, client_id: "agent" },
        });
        expect(seen.auth.expiresAt).toBeTypeOf("number");
        expect(JSON.stringify(seen)).not.toContain(token);
      } finally {
        await client.close();
      }
    });
  }

  it("is undefined where no credentials are verified (in memory)", async () => {
    const { client } = await connectInMemory(
      new McpServer({ name: "m", version: "1" }).tool("who", {}, (_a, ctx) => String(ctx.auth)),
    );
    expect((await client.callTool("who", {})).text()).toBe("undefined");
    await client.close();
  });
});

describe("sessions are bound to the caller that opened them", () => {
  const ran: string[] = [];
  let handle: HttpServerHandle;
  beforeAll(async () => {
    handle = await serve(ran);
  });
  afterAll(() => handle?.close());

  it("answers another caller's requests on the session 404, and runs nothing", async () => {
    const alice = await as.token({ resource: handle.url, scope: "mcp:tools" });
    const mallory = await as.token({
      resource: handle.url,
      scope: "mcp:tools files:write",
      client: OTHER_AGENT,
    });
    const client = await connect(handle, alice, "2025-11-25");
    const sessionId = (client as unknown as { transport: { sessionId: string } }).transport.sessionId;
    expect(sessionId).toBeTypeOf("string");
    const asMallory = { ...JSON_HEADERS, authorization: `Bearer ${mallory}`, "mcp-session-id": sessionId };
    const call = { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "whoami", arguments: {} } };

    const post = await fetch(handle.url, { method: "POST", headers: asMallory, body: JSON.stringify(call) });
    expect(post.status).toBe(404);
    const get = await fetch(handle.url, { headers: { ...asMallory, accept: "text/event-stream" } });
    expect(get.status).toBe(404);
    const del = await fetch(handle.url, { method: "DELETE", headers: asMallory });
    expect(del.status).toBe(404);
    expect(ran).toEqual([]);

    // A new token of the same caller (refreshed, other scopes) is still the same caller.
    const refreshed = await as.token({ resource: handle.url, scope: "mcp:tools notes:read" });
    const again = await fetch(handle.url, {
      method: "POST",
      headers: { ...JSON_HEADERS, authorization: `Bearer ${refreshed}`, "mcp-session-id": sessionId },
      body: JSON.stringify(call),
    });
    expect(again.status).toBe(200);
    expect(ran).toEqual(["whoami"]);
    await client.close();
  });
});

describe("scopes of tools, resources and prompts", () => {
  const ran: string[] = [];
  let handle: HttpServerHandle;
  beforeAll(async () => {
    handle = await serve(ran);
  });
  afterAll(() => handle?.close());

  for (const era of ERAS) {
    it(`are checked before the handler runs (${era})`, async () => {
      ran.length = 0;
      const token = await as.token({ resource: handle.url, scope: "mcp:tools" });
      const challenges: string[] = [];
      const client = await connect(handle, token, era, challenges);
      try {
        const refusals = [
          () => client.callTool("delete_note", {}),
          () => client.readResource("notes://private"),
          () => client.readResource("notes://by-id/7"),
          () => client.getPrompt("summarize"),
          () => client.complete({ type: "ref/prompt", name: "summarize" }, { name: "topic", value: "" }),
        ];
        for (const refused of refusals) {
          await expect(refused()).rejects.toThrow(/^Forbidden: .* needs scope (files:write|notes:read)$/);
        }
        expect(challenges).toEqual([
          expect.stringContaining('error="insufficient_scope"'),
          ...Array(4).fill(expect.stringContaining('scope="mcp:tools notes:read"')),
        ]);
        expect(ran).toEqual([]);
        // Everything is listed: without hideUnauthorized a caller sees what it could ask for.
        expect((await client.listTools()).map((t) => t.name)).toEqual(["delete_note", "whoami"]);
        expect((await client.readResource("notes://public")).contents[0]).toMatchObject({ text: "everyone" });
      } finally {
        await client.close();
      }
    });
  }

  it("let a caller with the scopes in", async () => {
    ran.length = 0;
    const token = await as.token({ resource: handle.url, scope: "mcp:tools notes:read files:write" });
    const client = await connect(handle, token, "2026-07-28");
    try {
      expect((await client.callTool("delete_note", {})).text()).toBe("deleted");
      expect((await client.readResource("notes://by-id/7")).contents[0]).toMatchObject({ text: "note 7" });
      expect((await client.getPrompt("summarize")).messages).toHaveLength(1);
      expect(ran).toEqual(["delete_note", "by-id", "summarize"]);
    } finally {
      await client.close();
    }
  });

  it("keep what depends on the caller out of shared caches (2026-07-28)", async () => {
    const server = newServer([], { hideUnauthorized: true, cache: { ttlMs: 60_000, cacheScope: "public" } });
    const shared = await server.serveHttp({ auth: { issuer: as.issuer } });
    const token = await as.token({ resource: shared.url, scope: "notes:read" });
    const client = await connect(shared, token, "2026-07-28");
    try {
      expect(((await client.readResource("notes://public")) as { cacheScope?: string }).cacheScope).toBe(
        "public",
      );
      expect(((await client.readResource("notes://private")) as { cacheScope?: string }).cacheScope).toBe(
        "private",
      );
      const page = (await client.listToolsPage()) as { cacheScope?: string };
      expect(page.cacheScope).toBe("private");
    } finally {
      await client.close();
      await shared.close();
    }
  });

  it("are refused in band where no credentials are verified, before the handler runs", async () => {
    const inner: string[] = [];
    const { client } = await connectInMemory(newServer(inner));
    const refused = await client.callTool("delete_note", {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).message).toBe(
      "Forbidden: tool delete_note needs scope files:write (the request carries no access token)",
    );
    expect((refused as McpError).data).toEqual({ requiredScopes: ["files:write"] });
    await expect(client.readResource("notes://private")).rejects.toThrow(/needs scope notes:read/);
    expect(inner).toEqual([]);
    await client.close();
  });

  it("are checked when registered", () => {
    const server = new McpServer({ name: "s", version: "1" });
    expect(() => server.tool("t", { scopes: ["two words"] }, () => "")).toThrow(/list of OAuth scopes/);
    expect(() => server.resource("a://b", { name: "b" }, () => "", { scopes: "x" as never })).toThrow(
      /list of OAuth scopes/,
    );
  });
});

describe("hideUnauthorized", () => {
  const ran: string[] = [];
  let handle: HttpServerHandle;
  beforeAll(async () => {
    handle = await serve(ran, true);
  });
  afterAll(() => handle?.close());

  for (const era of ERAS) {
    it(`lists to each caller only what its scopes allow (${era})`, async () => {
      const lists = async (scope: string) => {
        const client = await connect(handle, await as.token({ resource: handle.url, scope }), era);
        try {
          return {
            tools: (await client.listTools()).map((tool) => tool.name),
            resources: (await client.listResources()).map((resource) => resource.uri),
            templates: (await client.listResourceTemplates()).map((template) => template.uriTemplate),
            prompts: (await client.listPrompts()).map((prompt) => prompt.name),
          };
        } finally {
          await client.close();
        }
      };
      expect(await lists("mcp:tools")).toEqual({
        tools: ["whoami"],
        resources: ["notes://public"],
        templates: [],
        prompts: ["hello"],
      });
      expect(await lists("mcp:tools notes:read files:write")).toEqual({
        tools: ["delete_note", "whoami"],
        resources: ["notes://by-id/1", "notes://private", "notes://public"],
        templates: ["notes://by-id/{id}"],
        prompts: ["hello", "summarize"],
      });
    });
  }
});

describe("rate limits", () => {
  it("count a verified caller's calls wherever they come from, apart from other callers'", async () => {
    const server = new McpServer(
      { name: "limited", version: "1" },
      { rateLimit: { capacity: 1, refillPerSecond: 0.001 } },
    ).tool("ping", {}, () => "pong");
    const handle = await server.serveHttp({ auth: { issuer: as.issuer } });
    const agent = await as.token({ resource: handle.url, scope: "mcp:tools" });
    const other = await as.token({ resource: handle.url, scope: "mcp:tools", client: OTHER_AGENT });
    const clients = [
      await connect(handle, agent, "2025-11-25"),
      await connect(handle, agent, "2026-07-28"),
      await connect(handle, other, "2025-11-25"),
    ];
    try {
      expect((await clients[0]!.callTool("ping", {})).text()).toBe("pong");
      // Another session of the same caller shares its bucket.
      await expect(clients[1]!.callTool("ping", {})).rejects.toThrow(/rate/i);
      expect((await clients[2]!.callTool("ping", {})).text()).toBe("pong");
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      await handle.close();
    }
  });
});
