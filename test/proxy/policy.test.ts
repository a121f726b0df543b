/**
 * The gateway's policy as a middleware (allow and deny per caller, argument constraints, approval),
 * its checks of bad rules, and the binding of names to tools across upstream list changes.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import type { AuthInfo } from "../../src/protocol/transport.js";
import type { CallToolResult } from "../../src/protocol/types/tools.js";
import {
  createProxyServer,
  GatewayPolicy,
  type PolicyRule,
  type ToolCallContext,
  ToolOverrides,
} from "../../src/proxy/index.js";
import type { RequestContext } from "../../src/server/index.js";
import { McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory/index.js";
import { until } from "../helpers/until.js";

let cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  cleanups = [];
});

const caller = (subject: string, clientId?: string): AuthInfo =>
  ({ subject, clientId, scopes: [], token: "t", claims: {} }) as unknown as AuthInfo;

/** Runs one call through the policy; says whether the upstream (`next`) was reached. */
async function decide(
  rules: PolicyRule[],
  call: { server?: string; tool: string; auth?: AuthInfo; args?: Record<string, unknown>; trusted?: boolean },
  elicit?: () => Promise<{ action: string }>,
): Promise<{ reached: boolean; result: CallToolResult }> {
  const request = {
    auth: call.auth,
    signal: new AbortController().signal,
    clientCapabilities: elicit ? { elicitation: {} } : {},
    elicit,
  } as unknown as RequestContext;
  const ctx: ToolCallContext = {
    request,
    server: call.server ?? "fs",
    tool: call.tool,
    name: call.tool,
    arguments: call.args ?? {},
    annotations: { readOnlyHint: true },
    trusted: call.trusted ?? false,
  };
  let reached = false;
  const result = await new GatewayPolicy(rules).middleware(ctx, async () => {
    reached = true;
    return { content: [] };
  });
  return { reached, result };
}

describe("GatewayPolicy", () => {
  it("denies by glob for the callers a rule names, and only those", async () => {
    const rules: PolicyRule[] = [{ tools: "fs/write_*", callers: ["mallory", "client:bot"], action: "deny" }];
    expect((await decide(rules, { tool: "write_file", auth: caller("mallory") })).reached).toBe(false);
    expect((await decide(rules, { tool: "write_file", auth: caller("alice", "bot") })).reached).toBe(false);
    expect((await decide(rules, { tool: "write_file", auth: caller("alice") })).reached).toBe(true);
    expect((await decide(rules, { tool: "read_file", auth: caller("mallory") })).reached).toBe(true);
    expect(
      (await decide(rules, { tool: "write_file", server: "other", auth: caller("mallory") })).reached,
    ).toBe(true);
    const refused = await decide(rules, { tool: "write_file", auth: caller("mallory") });
    expect(refused.result.isError).toBe(true);
    expect(JSON.stringify(refused.result.content)).toContain("not for subject mallory");
  });

  it("an allow rule makes the tool its callers' only; a caller without a token is none of them", async () => {
    const rules: PolicyRule[] = [{ tools: ["admin_*"], callers: ["alice"], action: "allow" }];
    expect((await decide(rules, { tool: "admin_reset", auth: caller("alice") })).reached).toBe(true);
    expect((await decide(rules, { tool: "admin_reset", auth: caller("bob") })).reached).toBe(false);
    expect((await decide(rules, { tool: "admin_reset" })).reached).toBe(false);
    expect((await decide(rules, { tool: "list" })).reached).toBe(true);
  });

  it("checks the arguments against every schema that applies, naming what is wrong", async () => {
    const rules: PolicyRule[] = [
      { tools: "write_file", arguments: { properties: { path: { type: "string", pattern: "^/tmp/" } } } },
      { tools: "*", arguments: { required: ["path"] } },
    ];
    expect((await decide(rules, { tool: "write_file", args: { path: "/tmp/a" } })).reached).toBe(true);
    const outside = await decide(rules, { tool: "write_file", args: { path: "/etc/passwd" } });
    expect(outside.reached).toBe(false);
    expect(JSON.stringify(outside.result.content)).toMatch(/path.*pattern/);
    expect((await decide(rules, { tool: "read_file", args: {} })).reached).toBe(false);
  });

  it("approval: accepted runs; declined, cancelled, or a client that cannot be asked never reach the upstream", async () => {
    const rules: PolicyRule[] = [{ tools: "*", approval: true }];
    const answer = (action: string) => async () => ({ action });
    expect((await decide(rules, { tool: "t" }, answer("accept"))).reached).toBe(true);
    expect((await decide(rules, { tool: "t" }, answer("decline"))).reached).toBe(false);
    expect((await decide(rules, { tool: "t" }, answer("cancel"))).reached).toBe(false);
    const unasked = await decide(rules, { tool: "t" });
    expect(unasked.reached).toBe(false);
    expect(JSON.stringify(unasked.result.content)).toContain("cannot ask");
  });

  it('"unless-read-only" believes readOnlyHint of a trusted upstream only', async () => {
    const rules: PolicyRule[] = [{ tools: "*", approval: "unless-read-only" }];
    const decline = async () => ({ action: "decline" });
    expect((await decide(rules, { tool: "t", trusted: true }, decline)).reached).toBe(true);
    expect((await decide(rules, { tool: "t", trusted: false }, decline)).reached).toBe(false);
  });

  it("refuses bad rules and overrides with a message naming them", () => {
    expect(() => new GatewayPolicy([{ tools: [] }])).toThrow("policy rule 1 names no tools");
    expect(() => new GatewayPolicy([{ tools: "a", action: "block" as never }])).toThrow(/"action" must be/);
    expect(() => new GatewayPolicy([{ tools: "a", approval: "yes" as never }])).toThrow(/"approval" must be/);
    expect(() => new ToolOverrides({ a: { name: "x" }, b: { name: "x" } })).toThrow(/both named "x"/);
    expect(() => new ToolOverrides({ a: { nmae: "x" } as never })).toThrow(/unknown key "nmae"/);
    expect(() => new ToolOverrides({ a: { name: "has space" } })).toThrow(/not a valid tool name/);
  });
});

describe("examples/gateway.json", () => {
  it("is a valid gateway config: its renames, filters and trust as it says", async () => {
    const file = fileURLToPath(new URL("../../examples/gateway.json", import.meta.url));
    const proxy = await createProxyServer({ config: file });
    cleanups.push(() => proxy.close());
    const names = proxy.exposedTools().map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["calculate", "read", "files__write_file"]));
    expect(names).not.toContain("files__move_file");
    const [serverSide, clientSide] = createMemoryTransportPair();
    await proxy.connect(serverSide);
    const client = await McpClient.connect({ transport: clientSide });
    cleanups.push(() => client.close());
    expect((await client.callTool("calculate", { expression: "6 * 7" })).text()).toContain("42");
    // No one to approve (the client declares no elicitation): refused, and said so.
    const write = await client.callTool("files__write_file", { path: "x.txt", content: "x" });
    expect(write.isError).toBe(true);
    expect(write.text()).toContain("needs a person's approval");
  }, 60_000);
});

describe("names stay bound to their tools", () => {
  it("a list change upstream never gives a known name to another tool", async () => {
    const calls: string[] = [];
    const upstream = new McpServer({ name: "up", version: "1.0.0" }).tool("a", { description: "A" }, () => {
      calls.push("a");
      return "from a";
    });
    const http = await upstream.serveHttp({ port: 0 });
    cleanups.push(
      () => http.close(),
      () => upstream.close(),
    );
    const warnings: string[] = [];
    const proxy = await createProxyServer({
      upstream: { url: http.url },
      tools: { a: { name: "x", description: "Renamed A" } },
      onWarning: (message) => warnings.push(message),
    });
    cleanups.push(() => proxy.close());
    const [serverSide, clientSide] = createMemoryTransportPair();
    await proxy.connect(serverSide);
    const client = await McpClient.connect({ transport: clientSide, protocolVersion: "2025-11-25" });
    cleanups.push(() => client.close());
    expect((await client.listTools()).map((tool) => [tool.name, tool.description])).toEqual([
      ["x", "Renamed A"],
    ]);
    expect((await client.callTool("x")).text()).toBe("from a");

    // Upstream, "a" goes and a tool whose own name is "x" comes.
    upstream.removeTool("a");
    upstream.tool("x", { description: "Another tool" }, () => {
      calls.push("x");
      return "from x";
    });
    await until(() => warnings.some((w) => w.includes('"x" of up left out: the name x stays up/a')), {
      what: "the warning that x of up is left out",
    });
    expect(await client.listTools()).toEqual([]);
    const rerouted = await client.callTool("x").catch((error: Error) => error);
    expect(rerouted).toBeInstanceOf(Error);
    expect(calls).toEqual(["a"]);
  });
});

describe("caching hints of a filtered tool list", () => {
  async function listed(policy: PolicyRule[], protocolVersion: "2026-07-28" | "2025-11-25") {
    const upstream = new McpServer({ name: "up", version: "1.0.0" })
      .tool("open", {}, () => "open")
      .tool("admin", {}, () => "admin");
    const http = await upstream.serveHttp({ port: 0 });
    cleanups.push(
      () => http.close(),
      () => upstream.close(),
    );
    const proxy = await createProxyServer({
      upstream: { url: http.url },
      name: "up",
      policy,
      server: { cache: { ttlMs: 60_000, cacheScope: "public" } },
    });
    cleanups.push(() => proxy.close());
    const [serverSide, clientSide] = createMemoryTransportPair();
    await proxy.connect(serverSide);
    const client = await McpClient.connect({ transport: clientSide, protocolVersion });
    cleanups.push(() => client.close());
    return client.request<{ tools: { name: string }[]; ttlMs?: number; cacheScope?: string }>("tools/list");
  }

  it("a list that differs by caller is private to it, whatever the server's hints say", async () => {
    const result = await listed([{ tools: "up/admin", callers: ["alice"], action: "allow" }], "2026-07-28");
    expect(result.tools.map((tool) => tool.name)).toEqual(["open"]);
    expect(result).toMatchObject({ ttlMs: 60_000, cacheScope: "private" });
  });

  it("a list the same for every caller keeps the server's hints; a session's list has none", async () => {
    const same = await listed([{ tools: "up/admin", action: "deny" }], "2026-07-28");
    expect(same.tools.map((tool) => tool.name)).toEqual(["open"]);
    expect(same).toMatchObject({ ttlMs: 60_000, cacheScope: "public" });
    const legacy = await listed([{ tools: "up/admin", callers: ["alice"], action: "allow" }], "2025-11-25");
    expect(legacy.cacheScope).toBeUndefined();
  });
});
