/**
 * What only the 2026-07-28 revision has, between our client and our server over Streamable HTTP:
 * `subscriptions/listen` (opened by `client.on("toolsListChanged")`), the per-request log level,
 * caching hints on list and read results, and cancellation of an aborted call. Every message is
 * recorded and validated against the 2026-07-28 schema.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { McpClient } from "../../src/client/index.js";
import type { LoggingMessageNotificationParams } from "../../src/protocol/types/client-features.js";
import { McpServer } from "../../src/server/server.js";
import { createEverythingServer } from "../../src/servers/everything/index.js";
import { MessageLog } from "../helpers/spec-schema.js";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });
const until = <T>(check: () => T) => vi.waitFor(check, { timeout: 30_000, interval: 20 });

const MODERN = "2026-07-28";
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
const LOG_LEVEL = "io.modelcontextprotocol/logLevel";
const LOGS = ["Tool execution started", "Tool processing data", "Tool execution completed"];

type Message = Record<string, any>;

interface Connection {
  client: McpClient;
  log: MessageLog;
  sent(side: "client" | "server"): Message[];
  close(): Promise<void>;
}

/** Serves `server` over HTTP and connects our client (2026-07-28, the default), recording everything. */
async function connect(server: McpServer): Promise<Connection> {
  const handle = await server.serveHttp();
  const log = new MessageLog();
  try {
    const client = await McpClient.connect({
      url: handle.url,
      trace: (direction, message) => log.record(direction === "send" ? "client" : "server", message),
    });
    expect(client.protocolVersion).toBe(MODERN);
    return {
      client,
      log,
      sent: (side) => log.entries.filter((e) => e.direction === side).map((e) => e.message as Message),
      async close() {
        await client.close();
        await server.close();
        await handle.close();
      },
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

describe("2026-07-28 over HTTP: our client and the everything server", () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await connect(createEverythingServer());
  });
  afterAll(() => conn?.close());

  it("opens subscriptions/listen for toolsListChanged, and the event fires when the tools change", async () => {
    const { client, sent } = conn;
    let changes = 0;
    client.on("toolsListChanged", () => changes++);
    const listen = await until(() => {
      const request = sent("client").find((m) => m.method === "subscriptions/listen");
      expect(request?.params.notifications).toMatchObject({ toolsListChanged: true });
      return request!;
    });
    // Changes are announced only once the server has acknowledged the stream.
    await until(() =>
      expect(sent("server")).toContainEqual(
        expect.objectContaining({ method: "notifications/subscriptions/acknowledged" }),
      ),
    );
    expect((await client.callTool("test_trigger_tool_change")).text()).toBe(
      "test_dynamic_tool is now listed",
    );
    await until(() => expect(changes).toBe(1));
    expect((await client.listTools()).map((tool) => tool.name)).toContain("test_dynamic_tool");
    expect((await client.callTool("test_trigger_tool_change")).text()).toBe("test_dynamic_tool is now gone");
    await until(() => expect(changes).toBe(2));
    expect((await client.listTools()).map((tool) => tool.name)).not.toContain("test_dynamic_tool");
    // Each notification names the listen request it belongs to (but see below).
    const notified = sent("server").filter((m) => m.method === "notifications/tools/list_changed");
    expect(notified).toHaveLength(2);
    for (const m of notified) expect(String(m.params._meta[SUBSCRIPTION_ID])).toBe(String(listen.id));
  });

  // The subscription id is the listen request's JSON-RPC id as sent (a number stays a number).
  it("tags the acknowledgement and the notifications with the listen request's id as sent", () => {
    const { sent } = conn;
    const listen = sent("client").find((m) => m.method === "subscriptions/listen")!;
    expect(typeof listen.id).toBe("number");
    const tagged = sent("server").filter((m) => m.params?._meta?.[SUBSCRIPTION_ID] !== undefined);
    expect(tagged.map((m) => m.method)).toEqual([
      "notifications/subscriptions/acknowledged",
      "notifications/tools/list_changed",
      "notifications/tools/list_changed",
    ]);
    for (const m of tagged) expect(m.params._meta[SUBSCRIPTION_ID]).toBe(listen.id);
  });

  it("sends log messages only for a request that carries a log level", async () => {
    const { client, sent } = conn;
    const logs: LoggingMessageNotificationParams[] = [];
    client.on("log", (entry) => logs.push(entry));
    const messages = () => sent("server").filter((m) => m.method === "notifications/message");

    expect((await client.callTool("test_tool_with_logging")).text()).toMatch(/executed successfully/);
    const unleveled = sent("client").findLast((m) => m.method === "tools/call")!;
    expect(unleveled.params._meta[LOG_LEVEL]).toBeUndefined();
    expect(messages()).toEqual([]);
    expect(logs).toEqual([]);

    await client.setLoggingLevel("info");
    // The stateless revision has no logging/setLevel: the level travels with each request.
    expect(sent("client").some((m) => m.method === "logging/setLevel")).toBe(false);
    await client.callTool("test_tool_with_logging");
    const leveled = sent("client").findLast((m) => m.method === "tools/call")!;
    expect(leveled.params._meta[LOG_LEVEL]).toBe("info");
    await until(() => expect(logs.map((entry) => entry.data)).toEqual(LOGS));
    expect(logs.every((entry) => entry.level === "info" && entry.logger === "everything")).toBe(true);

    await client.setLoggingLevel("warning");
    await client.callTool("test_tool_with_logging");
    expect(messages()).toHaveLength(3);
  });

  it("puts caching hints on list and read results", async () => {
    const { client } = conn;
    const hints = { resultType: "complete", ttlMs: 0, cacheScope: "private" };
    for (const method of ["tools/list", "prompts/list", "resources/list", "resources/templates/list"])
      expect(await client.request(method)).toMatchObject(hints);
    expect(await client.request("resources/read", { uri: "test://static-text" })).toMatchObject(hints);
    // A tool call is not cacheable.
    const call = await client.request("tools/call", { name: "test_simple_text", arguments: {} });
    expect(call).toMatchObject({ resultType: "complete" });
    expect(call).not.toHaveProperty("ttlMs");
  });

  it("sends and receives only 2026-07-28 messages", () => {
    expect(conn.log.problems(MODERN)).toEqual([]);
  });
});

describe("2026-07-28 over HTTP: our client and a server with its own caching and a cancellable tool", () => {
  let conn: Connection;
  let started: () => void = () => {};
  const signals: AbortSignal[] = [];

  beforeAll(async () => {
    const server = new McpServer(
      { name: "tuned", version: "1.0.0" },
      { cache: { ttlMs: 60_000, cacheScope: "public" } },
    )
      .tool("block", { description: "Waits until cancelled" }, async (_args, ctx) => {
        signals.push(ctx.signal);
        started();
        await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
        return "cancelled";
      })
      .resource("memo://shared", { name: "shared" }, () => "server-wide hints")
      .resource("memo://own", { name: "own" }, () => "its own hints", {
        cache: { ttlMs: 5_000, cacheScope: "private" },
      })
      .prompt("hello", { description: "Says hello" }, () => "Hello!");
    conn = await connect(server);
  });
  afterAll(() => conn?.close());

  it("uses the server's and the resource's caching hints", async () => {
    const { client } = conn;
    const server = { ttlMs: 60_000, cacheScope: "public" };
    for (const method of ["tools/list", "prompts/list", "resources/list", "resources/templates/list"])
      expect(await client.request(method)).toMatchObject(server);
    expect(await client.request("resources/read", { uri: "memo://shared" })).toMatchObject(server);
    expect(await client.request("resources/read", { uri: "memo://own" })).toMatchObject({
      ttlMs: 5_000,
      cacheScope: "private",
    });
  });

  // The client keeps list results for the ttlMs the server gave.
  it("answers a second listTools() from its cache while ttlMs lasts", async () => {
    const { client, sent } = conn;
    const lists = () => sent("client").filter((m) => m.method === "tools/list").length;
    await client.listTools();
    const before = lists();
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(["block"]);
    expect(lists()).toBe(before);
  });

  it("aborts the server handler's ctx.signal when the caller aborts the call", async () => {
    const { client, sent } = conn;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const controller = new AbortController();
    const call = client.callTool("block", {}, { signal: controller.signal });
    await running;
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(false);
    controller.abort(new Error("enough"));
    await expect(call).rejects.toBeDefined();
    await until(() => expect(signals[0]!.aborted).toBe(true));
    // The server sent no result for the cancelled call.
    const id = sent("client").findLast((m) => m.method === "tools/call")!.id;
    expect(sent("server").filter((m) => m.id === id)).toEqual([]);
    // The connection is still good.
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(["block"]);
  });

  it("sends and receives only 2026-07-28 messages", () => {
    expect(conn.log.problems(MODERN)).toEqual([]);
  });
});
