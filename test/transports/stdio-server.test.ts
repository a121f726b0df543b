import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { INITIALIZED, initializeRequest } from "../helpers/initialize.js";
import { MessageLog } from "../helpers/spec-schema.js";

const cli = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

describe("stdio server", () => {
  it("answers 1,000 concurrent calls on one connection, each with its own result", async () => {
    const log = new MessageLog();
    const client = await McpClient.connect({
      command: process.execPath,
      args: [cli, "serve", "calculator"],
      trace: (direction, message) => log.record(direction === "send" ? "client" : "server", message),
    });
    try {
      const results = await Promise.all(
        Array.from({ length: 1000 }, (_, i) => client.callTool("calculator", { expression: `${i} * 3 + 1` })),
      );
      results.forEach((result, i) => {
        expect(result.isError).toBeUndefined();
        expect(result.text()).toBe(`${i} * 3 + 1 = ${i * 3 + 1}`);
      });
      expect(log.problems(client.protocolVersion)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("answers what is in flight when stdin ends, then exits with code 0", async () => {
    const child = spawn(process.execPath, [cli, "serve", "calculator"], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      out += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const lines = [
      initializeRequest({ protocolVersion: "2025-03-26" }),
      INITIALIZED,
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "calculator", arguments: { expression: "6 * 7" } },
      },
    ];
    child.stdin.end(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    expect(await exited).toBe(0);
    const responses = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(responses).toEqual([
      expect.objectContaining({ id: 1, result: expect.objectContaining({ protocolVersion: "2025-03-26" }) }),
      { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "6 * 7 = 42" }] } },
    ]);
  });

  it("answers bad input with the right JSON-RPC error and keeps serving", async () => {
    const child = spawn(process.execPath, [cli, "serve", "calculator"], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      out += chunk;
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.stdin.end(
      [
        "{not json",
        '{"jsonrpc":"2.0","id":5,"method":7}',
        '{"jsonrpc":"2.0","id":6,"method":"tools/list"}',
        '{"jsonrpc":"2.0","id":7,"method":"ping"}',
        "",
      ].join("\n"),
    );
    await exited;
    const responses = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(responses[0]).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: expect.any(String) },
    });
    expect(responses[1]).toMatchObject({ id: 5, error: { code: -32600 } });
    expect(responses[2]).toMatchObject({
      id: 6,
      error: { code: -32600, message: expect.stringContaining("not initialized") },
    });
    expect(responses[3]).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
  });
});
