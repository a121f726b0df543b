/**
 * server-everything (the reference server, over stdio) behind a real `mcpkit proxy --http`
 * process: its elicitation and sampling tools, called by mcpkit's CLI, by the official SDK v1
 * client (2025-11-25 session), by the official SDK v2 client pinned to 2026-07-28 (stateless: the
 * upstream's questions come back as `inputRequests`) and by mcpkit's client in either era.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { McpClient } from "../../src/client/index.js";
import type { ProtocolVersion } from "../../src/protocol/revisions/index.js";
import { CLI, type ProxyProcess, ROOT, startProxy } from "./helpers.js";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const EVERYTHING = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);
const REPLY = { role: "assistant", content: { type: "text", text: "Paris" }, model: "test-model" } as const;
const NAME = { action: "accept", content: { name: "Ada" } } as const;
const INFO = { name: "through-proxy", version: "0.0.1" };

let proxy: ProxyProcess;
beforeAll(async () => {
  proxy = await startProxy(["--port", "0", "--", process.execPath, EVERYTHING, "stdio"]);
});
afterAll(() => proxy?.stop());

type Result = { content?: unknown; isError?: unknown };
const textOf = (result: Result) =>
  (result.content as { text?: string }[]).map((block) => block.text ?? "").join("\n");

/** Both tools through an SDK client's `callTool`: the upstream's questions were answered by it. */
async function expectBothAnswered(call: (name: string, args: Record<string, unknown>) => Promise<Result>) {
  expect(textOf(await call("trigger-elicitation-request", {}))).toContain("- Name: Ada");
  expect(textOf(await call("trigger-sampling-request", { prompt: "Capital of France?" }))).toContain("Paris");
}

describe("through mcpkit proxy: server-everything's elicitation and sampling tools", () => {
  it("mcpkit's CLI: the elicitation reaches it (it declines without a terminal)", () => {
    const run = spawnSync(process.execPath, [CLI, "call", "trigger-elicitation-request", proxy.url], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(run.stderr).toContain("the server asked for input");
    expect(run.stdout).toContain("User declined");
    expect(run.status).toBe(0);
  });

  it("the official SDK v1 client (2025-11-25)", async () => {
    const client = new ClientV1(INFO, { capabilities: { elicitation: {}, sampling: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => NAME);
    client.setRequestHandler(CreateMessageRequestSchema, async () => REPLY);
    await client.connect(new HttpV1(new URL(proxy.url)));
    try {
      await expectBothAnswered((name, args) => client.callTool({ name, arguments: args }) as Promise<Result>);
    } finally {
      await client.close();
    }
  });

  it("the official SDK v2 client pinned to 2026-07-28 (stateless, input requests)", async () => {
    const client = new ClientV2(INFO, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      capabilities: { elicitation: { form: {} }, sampling: {} },
    });
    client.setRequestHandler("elicitation/create", async () => NAME);
    client.setRequestHandler("sampling/createMessage", async () => REPLY as never);
    await client.connect(new HttpV2(new URL(proxy.url)));
    try {
      expect(client.getProtocolEra()).toBe("modern");
      await expectBothAnswered((name, args) => client.callTool({ name, arguments: args }) as Promise<Result>);
    } finally {
      await client.close();
    }
  });

  it.each<ProtocolVersion>(["2025-11-25", "2026-07-28"])("mcpkit's client at %s", async (protocolVersion) => {
    const client = await McpClient.connect({
      url: proxy.url,
      protocolVersion,
      elicitation: () => NAME,
      sampling: () => REPLY,
    });
    try {
      expect((await client.callTool("trigger-elicitation-request", {})).text()).toContain("- Name: Ada");
      expect((await client.callTool("trigger-sampling-request", { prompt: "Capital?" })).text()).toContain(
        "Paris",
      );
    } finally {
      await client.close();
    }
  });
});
