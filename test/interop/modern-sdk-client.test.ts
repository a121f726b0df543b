/**
 * The official SDK v2 client (`@modelcontextprotocol/client` 2.4.0) in its 2026-07-28 mode
 * (`versionNegotiation`) against our everything server, over stdio (`node dist/cli/main.js serve
 * everything` — `npm run build` first) and over Streamable HTTP (`serveHttp()` in this process):
 * discovery, tools, multi round-trip requests answered by the SDK's own handlers, prompts, resources.
 * Every message is recorded and validated against the 2026-07-28 schema.
 */
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createEverythingServer } from "../../src/servers/everything/index.js";
import { alive } from "../helpers/processes.js";
import { InPlaceStdioClientTransport, tapTransport } from "../helpers/sdk-v2-modern.js";
import { MessageLog } from "../helpers/spec-schema.js";
import { until } from "../helpers/until.js";

/** Processes start slowly on a loaded machine: generous limits, never timing assertions. */
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const MODERN = "2026-07-28";
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SERVER = { command: process.execPath, args: ["dist/cli/main.js", "serve", "everything"], cwd: ROOT };
const CLIENT_INFO = { name: "interop-modern", version: "0.0.1" };
const NAME_FORM = {
  message: "What is your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
};
const REPLY = { role: "assistant", content: { type: "text", text: "Paris" }, model: "test-model" };
const ROOTS = [{ uri: "file:///work/project", name: "project" }];

type Message = Record<string, any>;

interface Handled {
  elicitation: Message[];
  sampling: Message[];
  roots: number;
}

/** A v2 client pinned to 2026-07-28, with elicitation, sampling and roots handlers that record their calls. */
function modernClient(handled: Handled): Client {
  const client = new Client(CLIENT_INFO, {
    versionNegotiation: { mode: { pin: MODERN } },
    capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
  });
  client.setRequestHandler("elicitation/create", async (request) => {
    handled.elicitation.push(request.params);
    return { action: "accept", content: { name: "Ada" } };
  });
  client.setRequestHandler("sampling/createMessage", async (request) => {
    handled.sampling.push(request.params);
    return REPLY as never;
  });
  client.setRequestHandler("roots/list", async () => {
    handled.roots++;
    return { roots: ROOTS };
  });
  return client;
}

/** The text of a result's only block, which must be text. */
function textOf(result: Message): string {
  expect(result.content).toEqual([{ type: "text", text: expect.any(String) }]);
  return result.content[0].text;
}

interface Connected {
  client: Client;
  close(): Promise<void>;
}

const TRANSPORTS: { name: string; connect(log: MessageLog, handled: Handled): Promise<Connected> }[] = [
  {
    name: "stdio (serve everything)",
    async connect(log, handled) {
      const transport = tapTransport(new InPlaceStdioClientTransport({ ...SERVER, stderr: "pipe" }), log);
      let stderr = "";
      (transport.stderr as Readable | null)?.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      const client = modernClient(handled);
      try {
        await client.connect(transport);
      } catch (error) {
        throw new Error(`${String(error)}; the server's stderr: ${stderr}`, { cause: error });
      }
      const pid = transport.pid!;
      return {
        client,
        async close() {
          await client.close();
          await until(() => !alive(pid), { what: "the server process to exit" });
        },
      };
    },
  },
  {
    name: "Streamable HTTP (serveHttp)",
    async connect(log, handled) {
      const server = createEverythingServer();
      const handle = await server.serveHttp();
      const transport = tapTransport(new StreamableHTTPClientTransport(new URL(handle.url)), log);
      const client = modernClient(handled);
      try {
        await client.connect(transport);
      } catch (error) {
        await handle.close();
        throw error;
      }
      return {
        client,
        async close() {
          await client.close();
          await server.close();
          await handle.close();
        },
      };
    },
  },
];

describe.each(TRANSPORTS)("the v2 client at 2026-07-28 against our server over $name", (transport) => {
  const log = new MessageLog();
  const handled: Handled = { elicitation: [], sampling: [], roots: 0 };
  const sent = (side: "client" | "server") =>
    log.entries.filter((e) => e.direction === side).map((e) => e.message as Message);
  let conn: Connected;
  let client: Client;

  beforeAll(async () => {
    conn = await transport.connect(log, handled);
    client = conn.client;
  });
  afterAll(() => conn?.close());

  it("discovers the server statelessly: server/discover, no initialize", () => {
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(client.getServerVersion()).toMatchObject({ name: "mcpkit-everything", version: "1.0.0" });
    expect(client.getInstructions()).toMatch(/test fixture/);
    expect(client.getDiscoverResult()?.supportedVersions).toEqual(
      expect.arrayContaining([MODERN, "2025-11-25"]),
    );
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, resources: {} });
    const [probe] = sent("client");
    expect(probe).toMatchObject({
      method: "server/discover",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } },
    });
    expect(sent("client").some((m) => m.method === "initialize")).toBe(false);
  });

  it("lists the tools, in name order", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(
      expect.arrayContaining(["test_simple_text", "test_input_required_result_elicitation"]),
    );
    const listed = sent("server").findLast((m) => Array.isArray(m.result?.tools));
    expect(listed?.result).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number) });
  });

  it("calls a tool; every request carries the per-request _meta", async () => {
    expect(textOf(await client.callTool({ name: "test_simple_text", arguments: {} }))).toBe(
      "This is a simple text response for testing.",
    );
    const call = sent("client").findLast((m) => m.method === "tools/call");
    expect(call?.params._meta).toMatchObject({
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
      "io.modelcontextprotocol/clientCapabilities": expect.objectContaining({
        elicitation: expect.anything(),
      }),
    });
  });

  it("answers an input_required elicitation with its handler and retries with inputResponses", async () => {
    const before = handled.elicitation.length;
    const result = await client.callTool({ name: "test_input_required_result_elicitation", arguments: {} });
    expect(textOf(result)).toBe("Hello, Ada (accept)");
    expect(handled.elicitation.slice(before)).toEqual([expect.objectContaining(NAME_FORM)]);
    const calls = sent("client").filter(
      (m) => m.method === "tools/call" && m.params.name === "test_input_required_result_elicitation",
    );
    expect(calls).toHaveLength(2);
    const interim = sent("server").find((m) => m.id === calls[0]!.id)!.result;
    expect(interim).toMatchObject({
      resultType: "input_required",
      inputRequests: { user_name: { method: "elicitation/create", params: NAME_FORM } },
      requestState: expect.any(String),
    });
    // The retry is a new request: the answers, and the state echoed byte for byte.
    expect(calls[1]!.id).not.toBe(calls[0]!.id);
    expect(calls[1]!.params).toMatchObject({
      inputResponses: { user_name: { action: "accept", content: { name: "Ada" } } },
      requestState: interim.requestState,
    });
    // No server→client request exists in this revision.
    expect(sent("server").filter((m) => m.method === "elicitation/create" && m.id !== undefined)).toEqual([]);
  });

  it("answers elicitation, sampling and roots asked at once, in one round", async () => {
    const result = await client.callTool({
      name: "test_input_required_result_multiple_inputs",
      arguments: {},
    });
    expect(textOf(result)).toBe("name accept, model: Paris, 1 root(s)");
    expect(handled.sampling.at(-1)).toMatchObject({ maxTokens: 100 });
    expect(handled.roots).toBeGreaterThan(0);
    const retries = sent("client").filter(
      (m) => m.params?.name === "test_input_required_result_multiple_inputs" && m.params.inputResponses,
    );
    expect(retries).toHaveLength(1);
    expect(Object.keys(retries[0]!.params.inputResponses).sort()).toEqual([
      "capital_question",
      "client_roots",
      "user_name",
    ]);
  });

  it("gets a prompt", async () => {
    const prompt = await client.getPrompt({
      name: "test_prompt_with_arguments",
      arguments: { arg1: "a", arg2: "b" },
    });
    expect(prompt.messages).toEqual([
      { role: "user", content: { type: "text", text: "Prompt with arguments: arg1='a', arg2='b'" } },
    ]);
  });

  it("reads a resource, with its caching hints", async () => {
    const read = await client.readResource({ uri: "test://static-text" });
    expect(read.contents).toEqual([
      {
        uri: "test://static-text",
        mimeType: "text/plain",
        text: "This is the content of the static text resource.",
      },
    ]);
    const answer = sent("server").findLast((m) => Array.isArray(m.result?.contents));
    expect(answer?.result).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
  });

  it("listens for tool list changes on a subscriptions/listen stream", async () => {
    let changes = 0;
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      changes++;
    });
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    await client.callTool({ name: "test_trigger_tool_change", arguments: {} });
    await vi.waitFor(() => expect(changes).toBe(1), { timeout: 30_000 });
    await client.callTool({ name: "test_trigger_tool_change", arguments: {} });
    await vi.waitFor(() => expect(changes).toBe(2), { timeout: 30_000 });
    await subscription.close();
    expect(await subscription.closed).toBe("local");
    const listen = sent("client").find((m) => m.method === "subscriptions/listen")!;
    const tagged = sent("server").filter((m) => m.params?._meta?.["io.modelcontextprotocol/subscriptionId"]);
    expect(tagged.map((m) => m.method)).toEqual([
      "notifications/subscriptions/acknowledged",
      "notifications/tools/list_changed",
      "notifications/tools/list_changed",
    ]);
    for (const m of tagged) expect(m.params._meta["io.modelcontextprotocol/subscriptionId"]).toBe(listen.id);
  });

  it("sends and receives only 2026-07-28 messages", () => {
    expect(log.entries.length).toBeGreaterThan(10);
    expect(log.problems(MODERN)).toEqual([]);
  });
});

describe("the v2 client's default stdio probe (on a sibling process) against our server", () => {
  it("picks 2026-07-28 in auto mode and serves calls on the session process", async () => {
    const log = new MessageLog();
    const transport = tapTransport(new StdioClientTransport({ ...SERVER, stderr: "pipe" }), log);
    (transport.stderr as Readable | null)?.resume();
    const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: "auto" } });
    await client.connect(transport);
    const pid = transport.pid!;
    try {
      expect(client.getProtocolEra()).toBe("modern");
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      expect(textOf(await client.callTool({ name: "test_simple_text", arguments: {} }))).toMatch(
        /simple text/,
      );
      // The probe ran on the sibling: the session process saw stateless requests only.
      const methods = log.entries
        .filter((e) => e.direction === "client")
        .map((e) => (e.message as Message).method);
      expect(methods).toEqual(["tools/call"]);
      expect(log.problems(MODERN)).toEqual([]);
    } finally {
      await client.close();
    }
    await until(() => !alive(pid), { what: "the server process to exit" });
  });
});
