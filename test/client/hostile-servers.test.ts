/**
 * Servers that misbehave, as a client sees them over stdio: what they send is dropped or refused
 * and reported, nothing of the client leaks, and the connection keeps working where it can.
 */
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { MultiServerClient } from "../../src/client/multi/index.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { JSONRPCMessage } from "../../src/jsonrpc/messages.js";
import { fixture } from "../helpers/raw-stdio.js";

const raw = fixture("raw-server.js");
const node = process.execPath;

let clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
});

async function connect(options: Parameters<typeof McpClient.connect>[0]): Promise<McpClient> {
  const client = await McpClient.connect(options);
  clients.push(client);
  return client;
}

describe("a client facing a hostile server", () => {
  it("drops a response carrying both result and error, reports it, and keeps the connection", async () => {
    const client = await connect({ command: node, args: [raw, "both"] });
    const reported: Error[] = [];
    client.on("protocolError", (error) => reported.push(error));
    const error = await client.callTool("x", {}, { timeout: 500 }).catch((e) => e);
    // Not taken for a success, nor for the error: the response is not one.
    expect(error.code).toBe(ErrorCode.RequestTimeout);
    expect(reported.map((e) => e.message)).toEqual([
      expect.stringMatching(/^Dropped a malformed response to request \d+: .*both "result" and "error"/),
    ]);
    await client.ping();
    expect(client.isClosed).toBe(false);
  });

  it("answers a server-sent request with -32601 on 2026-07-28, revealing nothing of the client", async () => {
    const sent: JSONRPCMessage[] = [];
    const client = await connect({
      command: node,
      args: [raw, "modern-asks"],
      roots: [{ uri: "file:///home/me/secret-project", name: "secret-project" }],
      trace: (direction, message) => direction === "send" && sent.push(message),
    });
    expect(client.protocolVersion).toBe("2026-07-28");
    const answer = JSON.parse((await client.callTool("x")).text());
    expect(answer).toMatchObject({
      jsonrpc: "2.0",
      id: expect.stringMatching(/^ask-/),
      error: { code: -32601 },
    });
    expect(JSON.stringify(sent)).not.toContain("secret-project");
    await client.ping();
  });

  it("skips non-JSON lines on stdout, reporting each as an event and on the stderr channel", async () => {
    const stderr: string[] = [];
    const reported: Error[] = [];
    const client = await connect({
      command: node,
      args: [raw, "noise"],
      onStderr: (line) => stderr.push(line),
    });
    client.on("protocolError", (error) => reported.push(error));
    expect(stderr).toContain("stdout: Debugger attached.");
    expect(stderr).toContain("stdout: === raw-noise server v0 ===");
    expect(stderr).toContain('stdout:   "hello": "world",');
    expect((await client.callTool("x")).text()).toBe("called");
    expect((await client.callTool("x")).text()).toBe("called");
    expect(reported.map((e) => e.message)).toEqual([
      expect.stringMatching(/not a JSON-RPC message.*\[info\] handling tools\/call/),
      expect.stringMatching(/not a JSON-RPC message.*\[info\] handling tools\/call/),
    ]);
    expect(client.isClosed).toBe(false);
  });

  it("closes the connection on a flood of non-JSON lines, saying why", async () => {
    const client = await connect({ command: node, args: [raw, "flood", "5000"], maxNoiseLines: 100 });
    const error = await client.callTool("x").catch((e) => e);
    expect(error.code).toBe(ErrorCode.ConnectionClosed);
    expect(error.message).toMatch(/wrote 100 lines in a row that are not JSON-RPC messages to stdout/);
    expect(client.isClosed).toBe(true);
  });

  it("keeps a noisy server of a MultiServerClient connected, without restarts", async () => {
    const mcp = await MultiServerClient.connect({ noisy: { command: node, args: [raw, "noise"] } });
    clients.push(mcp);
    expect(mcp.health().noisy).toMatchObject({ state: "connected", reconnects: 0 });
    expect((await mcp.client("noisy").callTool("x")).text()).toBe("called");
    expect(mcp.health().noisy).toMatchObject({ state: "connected", reconnects: 0 });
  });

  it("leaves a tool with a schema too deep out of a MultiServerClient's tools, with a warning, the others kept", async () => {
    const warnings: { server: string; message: string }[] = [];
    const mcp = await MultiServerClient.connect(
      { deep: { command: node, args: [raw, "deep-tools"] }, fine: { command: node, args: [raw, "noise"] } },
      { on: { warning: (warning) => warnings.push(warning) } },
    );
    clients.push(mcp);
    expect(mcp.tools().map((tool) => tool.name)).toEqual(["ok"]);
    expect(warnings).toEqual([
      {
        server: "deep",
        message: expect.stringMatching(/^Tool deep left out: its input schema nests deeper than 100 levels/),
      },
    ]);
    expect(mcp.health()).toMatchObject({ deep: { state: "connected" }, fine: { state: "connected" } });
  });
});
