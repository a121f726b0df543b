/**
 * Our client against official servers, in both eras:
 * - an SDK v2 server (`@modelcontextprotocol/server` 2.4.0, test/helpers/sdk-v2-modern.ts) served by
 *   `createMcpHandler` over HTTP (2026-07-28, and stateless 2025-era serving) and by `serveStdio`
 *   (either era on one connection), asked for 2026-07-28 (the default) and for 2025-11-25;
 * - legacy-only servers through the fallback: `server/discover` first, then the handshake — the
 *   reference `@modelcontextprotocol/server-everything` over stdio and a sessionful v2 server over HTTP.
 * Every message is recorded and validated against the negotiated revision's schema.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { McpClient, type StdioClientOptions } from "../../src/client/index.js";
import type { ProtocolVersion } from "../../src/protocol/revisions/index.js";
import type { ElicitRequestParams } from "../../src/protocol/types/client-features.js";
import { StdioClientTransport } from "../../src/transports/stdio/client.js";
import { alive } from "../helpers/processes.js";
import { startSdkV2Streamable } from "../helpers/sdk-http-servers.js";
import { startV2Http, V2_SERVER_INFO, V2_STDIO_SERVER } from "../helpers/sdk-v2-modern.js";
import { MessageLog } from "../helpers/spec-schema.js";
import { until } from "../helpers/until.js";

/** Processes start slowly on a loaded machine: generous limits, never timing assertions. */
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const LEGACY_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const EVERYTHING = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);

type Message = Record<string, any>;

/** A connection of our client whose every message lands in `log`, and whose elicitations are recorded. */
interface Session {
  client: McpClient;
  log: MessageLog;
  elicited: ElicitRequestParams[];
  close(): Promise<void>;
}

function recording(): Pick<Session, "log" | "elicited"> & {
  trace: (direction: "send" | "receive", message: unknown) => void;
  elicitation: (params: ElicitRequestParams) => Promise<{ action: "accept"; content: { name: string } }>;
} {
  const log = new MessageLog();
  const elicited: ElicitRequestParams[] = [];
  return {
    log,
    elicited,
    trace: (direction, message) => log.record(direction === "send" ? "client" : "server", message),
    elicitation: async (params) => {
      elicited.push(params);
      return { action: "accept", content: { name: "Ada" } };
    },
  };
}

/** Connects over stdio; `close()` also checks that the server's process is gone. */
async function overStdio(options: Omit<StdioClientOptions, "trace" | "elicitation">): Promise<Session> {
  const { trace, elicitation, ...rest } = recording();
  const client = await McpClient.connect({ ...options, trace, elicitation, onStderr: () => {} });
  const pid = (client.transport as StdioClientTransport).pid!;
  expect(client.transport).toBeInstanceOf(StdioClientTransport);
  return {
    ...rest,
    client,
    async close() {
      await client.close();
      await until(() => !alive(pid), { what: "the server process to exit" });
    },
  };
}

const sentBy = (log: MessageLog, side: "client" | "server") =>
  log.entries.filter((e) => e.direction === side).map((e) => e.message as Message);

interface Case {
  name: string;
  /** How the test names what the client asks for. */
  label: string;
  /** The version our client asks for; undefined: the default (2026-07-28 first, then the handshake). */
  ask: string | undefined;
  expected: string;
  connect(ask: string | undefined): Promise<Session>;
  /** Whether the server can ask for input in this mode (not on 2025-era stateless HTTP). */
  canElicit: boolean;
}

const CASES: Case[] = [
  ...[undefined, LEGACY].map((ask) => ({
    name: "createMcpHandler over HTTP",
    label: ask ?? "the default",
    ask,
    expected: ask ?? MODERN,
    canElicit: ask === undefined,
    async connect(version: ProtocolVersion | undefined): Promise<Session> {
      const v2 = await startV2Http();
      const { trace, elicitation, ...rest } = recording();
      try {
        const client = await McpClient.connect({
          url: v2.http.url,
          protocolVersion: version,
          trace,
          elicitation,
        });
        return {
          ...rest,
          client,
          async close() {
            await client.close();
            await v2.close();
          },
        };
      } catch (error) {
        await v2.close();
        throw error;
      }
    },
  })),
  ...[undefined, LEGACY].map((ask) => ({
    name: "serveStdio",
    label: ask ?? "the default",
    ask,
    expected: ask ?? MODERN,
    canElicit: true,
    connect: (version: ProtocolVersion | undefined) =>
      overStdio({ ...V2_STDIO_SERVER, protocolVersion: version }),
  })),
];

describe.each(CASES)("our client asking for $label against the v2 server ($name)", (c) => {
  let session: Session;
  beforeAll(async () => {
    session = await c.connect(c.ask);
  });
  afterAll(() => session?.close());

  it(`speaks ${c.expected}`, () => {
    const { client, log } = session;
    expect(client.protocolVersion).toBe(c.expected);
    expect(client.serverInfo).toMatchObject(V2_SERVER_INFO);
    expect(client.capabilities.tools).toBeDefined();
    const first = sentBy(log, "client")[0];
    if (c.expected === MODERN) {
      expect(first).toMatchObject({
        method: "server/discover",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } },
      });
      expect(sentBy(log, "client").some((m) => m.method === "initialize")).toBe(false);
    } else {
      // Asked for a handshake-era version, the client does not probe.
      expect(first).toMatchObject({ method: "initialize", params: { protocolVersion: LEGACY } });
    }
  });

  it("lists and calls tools", async () => {
    const { client, log } = session;
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(["echo", "whoami"]);
    const echo = await client.callTool("echo", { message: "hé" });
    expect(echo.isError).toBeFalsy();
    expect(echo.text()).toBe("hé");
    const call = sentBy(log, "client").findLast((m) => m.method === "tools/call")!;
    if (c.expected === MODERN) {
      expect(call.params._meta).toMatchObject({ "io.modelcontextprotocol/protocolVersion": MODERN });
      expect(sentBy(log, "server").find((m) => m.id === call.id)?.result.resultType).toBe("complete");
    } else expect(call.params._meta).toBeUndefined();
  });

  it("answers the server's elicitation with its handler", async () => {
    const { client, log, elicited } = session;
    const result = await client.callTool("whoami");
    if (!c.canElicit) {
      // The SDK's stateless 2025-era serving has no channel for server→client requests.
      expect(result.isError).toBe(true);
      expect(result.text()).toMatch(/elicitation\/create/);
      expect(elicited).toEqual([]);
      return;
    }
    expect(result.isError).toBeFalsy();
    expect(result.text()).toBe("Hello, Ada");
    expect(elicited).toEqual([expect.objectContaining({ message: "What is your name?" })]);
    const server = sentBy(log, "server");
    if (c.expected === MODERN) {
      const calls = sentBy(log, "client").filter((m) => m.params?.name === "whoami");
      expect(calls.map((m) => m.params.inputResponses)).toEqual([
        undefined,
        { name: { action: "accept", content: { name: "Ada" } } },
      ]);
      expect(server.find((m) => m.id === calls[0]!.id)?.result).toMatchObject({
        resultType: "input_required",
        inputRequests: { name: { method: "elicitation/create" } },
      });
    } else {
      expect(server.filter((m) => m.method === "elicitation/create" && m.id !== undefined)).toHaveLength(1);
    }
  });

  it(`sends and receives only ${c.expected} messages`, () => {
    expect(session.log.entries.length).toBeGreaterThan(5);
    expect(session.log.problems(c.expected)).toEqual([]);
  });
});

describe("our client against legacy-only servers, through the fallback", () => {
  /** The probe came first and was refused; the handshake followed. */
  function expectFallback(log: MessageLog, version: string) {
    expect(LEGACY_VERSIONS).toContain(version);
    const client = sentBy(log, "client");
    expect(client[0]).toMatchObject({ method: "server/discover" });
    expect(sentBy(log, "server")[0]).toMatchObject({ id: client[0]!.id, error: expect.any(Object) });
    expect(client[1]).toMatchObject({ method: "initialize", params: { protocolVersion: LEGACY } });
    expect(client[2]).toMatchObject({ method: "notifications/initialized" });
    // After the handshake, requests carry no stateless _meta.
    for (const m of client.slice(1))
      expect(m.params?._meta?.["io.modelcontextprotocol/protocolVersion"]).toBeUndefined();
    expect(log.problems(version)).toEqual([]);
  }

  it("@modelcontextprotocol/server-everything over stdio", async () => {
    const session = await overStdio({ command: process.execPath, args: [EVERYTHING] });
    try {
      const { client, log } = session;
      expect(client.protocolVersion).toBe(LEGACY);
      expect(client.serverInfo.name).toBe("mcp-servers/everything");
      expect((await client.listTools()).map((tool) => tool.name)).toContain("echo");
      expect((await client.callTool("echo", { message: "hi" })).text()).toBe("Echo: hi");
      expectFallback(log, client.protocolVersion);
    } finally {
      await session.close();
    }
  });

  it("a sessionful v2 server over Streamable HTTP", async () => {
    const http = await startSdkV2Streamable();
    const { trace, log } = recording();
    try {
      const client = await McpClient.connect({ url: http.url, trace });
      try {
        expect(client.protocolVersion).toBe(LEGACY);
        expect((await client.callTool("echo", { message: "hi" })).text()).toBe("hi");
        expectFallback(log, client.protocolVersion);
        // The probe went out with the 2026 header; the handshake opened a session.
        expect(http.requests("POST")[0]!.headers["mcp-protocol-version"]).toBe(MODERN);
        expect(http.requests("POST").at(-1)!.headers["mcp-session-id"]).toEqual(expect.any(String));
      } finally {
        await client.close();
      }
    } finally {
      await http.close();
    }
  });
});
