/**
 * One server, both eras, one handler: the everything server's `test_input_required_result_elicitation`
 * does `await ctx.elicit(...)`. Served over Streamable HTTP by one `serveHttp()`, it is called at the
 * same time by handshake-era clients (our McpClient pinned to 2025-11-25, the official SDK v1 client),
 * which get an `elicitation/create` request, and by a stateless client (our McpClient, 2026-07-28),
 * which gets an InputRequiredResult and retries with `inputResponses`. Each conversation is recorded
 * and validated against its own revision's schema.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { McpClient } from "../../src/client/index.js";
import type { ProtocolVersion } from "../../src/protocol/revisions/index.js";
import type { ElicitRequestParams } from "../../src/protocol/types/client-features.js";
import type { McpServer } from "../../src/server/server.js";
import { createEverythingServer } from "../../src/servers/everything/index.js";
import { tapTransport } from "../helpers/sdk-v2-modern.js";
import { MessageLog } from "../helpers/spec-schema.js";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const TOOL = "test_input_required_result_elicitation";
const QUESTION = "What is your name?";

type Message = Record<string, any>;

interface Participant {
  log: MessageLog;
  asked: ElicitRequestParams[];
  call(): Promise<string>;
  version(): string | undefined;
  close(): Promise<void>;
}

const sentBy = (log: MessageLog, side: "client" | "server") =>
  log.entries.filter((e) => e.direction === side).map((e) => e.message as Message);

/** Our client at `protocolVersion`, answering elicitations with `name`. */
async function ours(url: string, protocolVersion: ProtocolVersion, name: string): Promise<Participant> {
  const log = new MessageLog();
  const asked: ElicitRequestParams[] = [];
  const client = await McpClient.connect({
    url,
    protocolVersion,
    trace: (direction, message) => log.record(direction === "send" ? "client" : "server", message),
    elicitation: async (params) => {
      asked.push(params);
      return { action: "accept", content: { name } };
    },
  });
  return {
    log,
    asked,
    call: async () => (await client.callTool(TOOL)).text(),
    version: () => client.protocolVersion,
    close: () => client.close(),
  };
}

/** The official SDK v1 client over Streamable HTTP (a handshake-era client), answering with `name`. */
async function sdkV1(url: string, name: string): Promise<Participant> {
  const log = new MessageLog();
  const asked: ElicitRequestParams[] = [];
  const client = new ClientV1({ name: "sdk-v1", version: "1.32.2" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params as ElicitRequestParams);
    return { action: "accept", content: { name } };
  });
  const transport = tapTransport(new HttpV1(new URL(url)), log);
  await client.connect(transport);
  return {
    log,
    asked,
    call: async () => {
      const result = (await client.callTool({ name: TOOL, arguments: {} })) as Message;
      return result.content[0].text;
    },
    version: () => transport.protocolVersion,
    close: () => client.close(),
  };
}

describe("one server, one ctx.elicit() handler, legacy and modern clients side by side", () => {
  let server: McpServer;
  let close: () => Promise<void>;
  let legacy: Participant;
  let v1: Participant;
  let modern: Participant;
  const results: string[] = [];

  beforeAll(async () => {
    server = createEverythingServer();
    const handle = await server.serveHttp();
    close = () => handle.close();
    legacy = await ours(handle.url, LEGACY, "Grace");
    v1 = await sdkV1(handle.url, "Linus");
    modern = await ours(handle.url, MODERN, "Ada");
    // All three at once, on the same endpoint.
    results.push(...(await Promise.all([legacy.call(), v1.call(), modern.call()])));
  });
  afterAll(async () => {
    await Promise.all([legacy, v1, modern].map((p) => p?.close()));
    await server?.close();
    await close?.();
  });

  it("negotiates each client's era", () => {
    expect(legacy.version()).toBe(LEGACY);
    expect(v1.version()).toBe(LEGACY);
    expect(modern.version()).toBe(MODERN);
  });

  it("gives each client the answer its own handler gave", () => {
    expect(results).toEqual(["Hello, Grace (accept)", "Hello, Linus (accept)", "Hello, Ada (accept)"]);
    for (const participant of [legacy, v1, modern])
      expect(participant.asked).toEqual([expect.objectContaining({ message: QUESTION })]);
  });

  it.each([
    ["our legacy client", () => legacy],
    ["the SDK v1 client", () => v1],
  ])("asks %s with an elicitation/create request", (_name, participant) => {
    const { log } = participant();
    const requests = sentBy(log, "server").filter((m) => m.method === "elicitation/create");
    expect(requests).toEqual([
      expect.objectContaining({
        id: expect.anything(),
        params: expect.objectContaining({ message: QUESTION }),
      }),
    ]);
    const answer = sentBy(log, "client").find((m) => m.id === requests[0]!.id && m.method === undefined);
    expect(answer?.result).toMatchObject({ action: "accept" });
    // One tools/call, answered once, with no trace of the stateless revision.
    const calls = sentBy(log, "client").filter((m) => m.method === "tools/call");
    expect(calls).toHaveLength(1);
    const results = sentBy(log, "server").filter((m) => m.id === calls[0]!.id && m.result);
    expect(results).toHaveLength(1);
    expect(results[0]!.result.resultType).toBeUndefined();
    expect(JSON.stringify(log.entries)).not.toMatch(
      /"(resultType|inputRequests|inputResponses|requestState)"/,
    );
  });

  it("asks the modern client through an InputRequiredResult, and it retries with inputResponses", () => {
    const { log } = modern;
    expect(sentBy(log, "server").filter((m) => m.method === "elicitation/create")).toEqual([]);
    const calls = sentBy(log, "client").filter((m) => m.method === "tools/call");
    expect(calls).toHaveLength(2);
    const first = sentBy(log, "server").find((m) => m.id === calls[0]!.id)!.result;
    expect(first).toMatchObject({
      resultType: "input_required",
      inputRequests: { user_name: { method: "elicitation/create", params: { message: QUESTION } } },
      requestState: expect.any(String),
    });
    expect(calls[1]!.params).toMatchObject({
      name: TOOL,
      inputResponses: { user_name: { action: "accept", content: { name: "Ada" } } },
      requestState: first.requestState,
    });
    const last = sentBy(log, "server").find((m) => m.id === calls[1]!.id)!.result;
    expect(last).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "Hello, Ada (accept)" }],
    });
  });

  it("keeps each conversation within its revision", () => {
    expect(legacy.log.problems(LEGACY)).toEqual([]);
    expect(v1.log.problems(v1.version()!)).toEqual([]);
    expect(modern.log.problems(MODERN)).toEqual([]);
  });
});
