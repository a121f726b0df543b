/**
 * `mcpkit proxy --config mcp.json --http --port 0 --audit FILE` serving three stdio servers (the
 * bundled calculator and the search fixture twice) as one, driven by the official SDK client over
 * Streamable HTTP: prefixed names, allow/deny lists from the config and the command line, progress,
 * cancellation, list changes, one audit line per call without the arguments, nothing left running.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { until } from "../helpers/until.js";
import { allGone, CLI, type ProxyProcess, SEARCH_FIXTURE, startProxy } from "./helpers.js";

const SECRET = "query-that-must-not-reach-the-audit-log";

let dir: string;
let auditPath: string;
let proxy: ProxyProcess;
let client: Client;
let upstreamProcesses: number[] = [];
let listChanged = 0;
/** The calls made, in order, with the outcome the audit log should show. */
const calls: { server: string; tool: string; args: Record<string, unknown>; outcome: string }[] = [];

type CallResult = { content: { type: string; text?: string }[]; isError?: boolean };

async function call(
  name: string,
  args: Record<string, unknown>,
  options: Parameters<Client["callTool"]>[2] = {},
): Promise<CallResult> {
  return (await client.callTool({ name, arguments: args }, undefined, options)) as CallResult;
}

const textOf = (result: CallResult) => result.content.map((block) => block.text ?? "").join("\n");

/** The canonical JSON the proxy digests: sorted keys, no whitespace. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
    .join(",")}}`;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

function auditLines(): Record<string, unknown>[] {
  let text = "";
  try {
    text = readFileSync(auditPath, "utf8");
  } catch {
    // not written yet
  }
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpkit-proxy-"));
  auditPath = join(dir, "audit.jsonl");
  const config = join(dir, "mcp.json");
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: {
        // Trusted: its tool annotations reach clients.
        calc: { command: process.execPath, args: [CLI, "serve", "calculator"], trusted: true },
        alpha: { command: process.execPath, args: [SEARCH_FIXTURE, "alpha"], denyTools: ["add_tool"] },
        beta: {
          command: process.execPath,
          args: [SEARCH_FIXTURE, "beta"],
          allowTools: ["search", "slow", "wait", "was_*", "add_tool", "broken", "extra"],
        },
      },
    }),
  );
  proxy = await startProxy([
    "--config",
    config,
    "--http",
    "--port",
    "0",
    "--audit",
    auditPath,
    "--deny",
    "beta/broken",
  ]);
  upstreamProcesses = proxy.children();
  client = new Client({ name: "proxy-test", version: "1.0.0" });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanged++;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
}, 60_000);

afterAll(async () => {
  await client?.close();
  await proxy?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("mcpkit proxy --config (aggregate) over Streamable HTTP, official SDK client", () => {
  it("prints each server's tools and what allow/deny hide on stderr", () => {
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(proxy.stderr()).toContain("mcpkit: proxy: calc: 1 tool\n");
    expect(proxy.stderr()).toContain("mcpkit: proxy: alpha: 7 tools, 1 hidden by allow/deny\n");
    expect(proxy.stderr()).toContain("mcpkit: proxy: beta: 5 tools, 3 hidden by allow/deny\n");
    expect(upstreamProcesses).toHaveLength(3);
  });

  it("introduces itself as the proxy, with the servers' instructions", () => {
    expect(client.getServerVersion()?.name).toBe("mcpkit-proxy");
    const instructions = client.getInstructions() ?? "";
    expect(instructions).toContain("calc, alpha, beta");
    expect(instructions).toContain("calc: Use the calculator tool");
  });

  it("lists the tools of every server under server__tool names, without the hidden ones", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [
      "calc__calculator",
      "alpha__search",
      "alpha__whoami",
      "alpha__broken",
      "alpha__wait",
      "beta__search",
      "beta__slow",
      "beta__wait",
      "beta__was_cancelled",
      "beta__add_tool",
    ]) {
      expect(names).toContain(name);
    }
    // alpha's denyTools, beta's allowTools (whoami is not in it), --deny beta/broken
    for (const hidden of ["alpha__add_tool", "beta__whoami", "beta__broken"])
      expect(names).not.toContain(hidden);
    expect(names.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
    const calculator = tools.find((tool) => tool.name === "calc__calculator")!;
    expect(calculator.inputSchema).toMatchObject({ type: "object", required: ["expression"] });
    expect(calculator.annotations).toMatchObject({ readOnlyHint: true });
  });

  it("routes each call to its server", async () => {
    const sum = await call("calc__calculator", { expression: "2 + 3 * 4" });
    calls.push({ server: "calc", tool: "calculator", args: { expression: "2 + 3 * 4" }, outcome: "ok" });
    expect(textOf(sum)).toBe("2 + 3 * 4 = 14");
    const alpha = await call("alpha__search", { query: SECRET });
    calls.push({ server: "alpha", tool: "search", args: { query: SECRET }, outcome: "ok" });
    expect(textOf(alpha)).toBe(`alpha: results for ${SECRET}`);
    const beta = await call("beta__search", { query: "q" });
    calls.push({ server: "beta", tool: "search", args: { query: "q" }, outcome: "ok" });
    expect(textOf(beta)).toBe("beta: results for q");
  });

  it("keeps isError: a tool's failure is a result", async () => {
    const result = await call("alpha__broken", {});
    calls.push({ server: "alpha", tool: "broken", args: {}, outcome: "tool_error" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("alpha: the index is offline");
    const bad = await call("calc__calculator", { expression: "2 +" });
    calls.push({ server: "calc", tool: "calculator", args: { expression: "2 +" }, outcome: "tool_error" });
    expect(bad.isError).toBe(true);
  });

  it("a hidden tool cannot be called: unknown tool, -32602, and no audit line", async () => {
    for (const name of ["beta__broken", "alpha__add_tool", "beta__whoami"]) {
      const error = await call(name, {}).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32602);
    }
  });

  it("forwards progress", async () => {
    const seen: { progress: number; total?: number }[] = [];
    const result = await call(
      "beta__slow",
      { steps: 3, delay: 10 },
      { onprogress: (progress) => seen.push(progress) },
    );
    calls.push({ server: "beta", tool: "slow", args: { steps: 3, delay: 10 }, outcome: "ok" });
    expect(textOf(result)).toBe("beta: done after 3 steps");
    expect(seen.map(({ progress, total }) => [progress, total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it("forwards cancellation to the upstream server", async () => {
    const controller = new AbortController();
    const started = new Promise<void>((resolve) => {
      void call("beta__wait", {}, { signal: controller.signal, onprogress: () => resolve() }).catch(() => {});
    });
    await started;
    controller.abort();
    calls.push({ server: "beta", tool: "wait", args: {}, outcome: "cancelled" });
    const cancelled = async () => {
      const seen = textOf(await call("beta__was_cancelled", {}));
      calls.push({ server: "beta", tool: "was_cancelled", args: {}, outcome: "ok" });
      return seen === "true";
    };
    await until(cancelled, { what: "the upstream to see the call cancelled", intervalMs: 50 });
  });

  it("follows an upstream's tools/list_changed and tells the client", async () => {
    const before = listChanged;
    await call("beta__add_tool", { name: "extra" });
    calls.push({ server: "beta", tool: "add_tool", args: { name: "extra" }, outcome: "ok" });
    await until(() => listChanged > before, { what: "the client to hear tools/list_changed" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("beta__extra");
    expect(textOf(await call("beta__extra", {}))).toBe("beta: extra");
    calls.push({ server: "beta", tool: "extra", args: {}, outcome: "ok" });
  });

  it("wrote exactly one audit line per call, with its digest and never its arguments", async () => {
    // The cancelled call's line is written when the upstream call ends, which the client does not wait for.
    await until(() => auditLines().length >= calls.length, { what: "an audit line for every call" });
    const lines = auditLines();
    expect(lines).toHaveLength(calls.length);
    const text = await readFile(auditPath, "utf8");
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("2 + 3 * 4");
    // The cancelled call's line may come after the calls that followed it: compare as multisets.
    const key = (entry: { server: unknown; tool: unknown; argsDigest: unknown; outcome: unknown }) =>
      `${entry.server} ${entry.tool} ${entry.argsDigest} ${entry.outcome}`;
    const expected = calls.map((c) => key({ ...c, argsDigest: sha256(canonical(c.args)) })).sort();
    expect(lines.map((line) => key(line as never)).sort()).toEqual(expected);
    for (const line of lines) {
      const keys = ["argsDigest", "durationMs", "outcome", "prev", "seq", "server", "time", "tool"];
      // A result's size, unless the call failed or was cancelled.
      if (line.outcome === "ok" || line.outcome === "tool_error") keys.push("resultSize");
      expect(Object.keys(line).sort()).toEqual(keys.sort());
      expect(new Date(line.time as string).toISOString()).toBe(line.time);
      expect(line.argsDigest).toMatch(/^[0-9a-f]{64}$/);
      expect(Number.isInteger(line.durationMs) && (line.durationMs as number) >= 0).toBe(true);
    }
    // Canonical: keys sorted, no whitespace, whatever order the client sent them in.
    const slow = lines.find((line) => line.tool === "slow")!;
    expect(slow.argsDigest).toBe(sha256('{"delay":10,"steps":3}'));
  });

  it("SIGTERM: exit code 0, and every server it started is gone", async () => {
    await client.close();
    expect(await proxy.stop()).toBe(0);
    expect(await allGone(upstreamProcesses)).toBe(true);
  });
});
