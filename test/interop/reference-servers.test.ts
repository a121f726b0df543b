/**
 * Interop: our `McpClient` against the official reference servers, run over stdio straight from
 * node_modules (nothing is fetched). Every message each side sent is checked against the official
 * JSON Schema of the negotiated revision, and after `close()` the server's process group is gone.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { McpClient } from "../../src/client/index.js";
import type { ProtocolVersion } from "../../src/protocol/revisions/index.js";
import type { Progress } from "../../src/protocol/types/base.js";
import { StdioClientTransport } from "../../src/transports/stdio/index.js";
import { MessageLog } from "../helpers/spec-schema.js";

const modules = (file: string) => fileURLToPath(new URL(`../../node_modules/${file}`, import.meta.url));
const EVERYTHING = modules("@modelcontextprotocol/server-everything/dist/index.js");
const FILESYSTEM = modules("@modelcontextprotocol/server-filesystem/dist/index.js");

/** Processes on a loaded machine start slowly: generous limits, never timing assertions. */
const SLOW = 120_000;

interface Session {
  client: McpClient;
  log: MessageLog;
  pid: number;
}

/** Just enough of a JSON-RPC message to look into the log. */
interface Message {
  method?: string;
  params?: { protocolVersion?: string; progressToken?: unknown; _meta?: { progressToken?: unknown } };
}

const open = new Set<Session>();

async function connect(args: string[], protocolVersion?: ProtocolVersion): Promise<Session> {
  const log = new MessageLog();
  const client = await McpClient.connect({
    command: process.execPath,
    args,
    protocolVersion,
    handshakeTimeout: 60_000,
    requestTimeout: 60_000,
    trace: (direction, message) => log.record(direction === "send" ? "client" : "server", message),
  });
  const transport = client.transport;
  if (!(transport instanceof StdioClientTransport) || transport.pid === undefined) {
    await client.close();
    throw new Error("expected a running StdioClientTransport");
  }
  const session = { client, log, pid: transport.pid };
  open.add(session);
  return session;
}

/** `process.kill(pid, 0)`'s verdict: "alive", or the error code ("ESRCH" once it is gone). */
function probe(pid: number): string {
  try {
    process.kill(pid, 0);
    return "alive";
  } catch (error) {
    return String((error as NodeJS.ErrnoException).code);
  }
}

/** Closes, then checks the server (and its process group) is gone and the conversation conformed. */
async function finish(session: Session): Promise<void> {
  open.delete(session);
  const { client, log, pid } = session;
  await client.close();
  expect(client.isClosed).toBe(true);
  expect(probe(pid)).toBe("ESRCH");
  expect(probe(-pid)).toBe("ESRCH"); // the server runs in its own process group
  expect(log.entries.length).toBeGreaterThanOrEqual(4); // at least the handshake and one request
  expect(log.problems(client.protocolVersion)).toEqual([]);
}

afterEach(async () => {
  // Only when a test failed before finish(): never leave a server behind.
  for (const session of open) await session.client.close();
  open.clear();
});

/** The 12 tools server-everything always registers, plus the one it adds after `initialized` for a
 * client without sampling/elicitation/roots capabilities (the task-based research tool). */
const EVERYTHING_TOOLS = [
  "echo",
  "get-annotated-message",
  "get-env",
  "get-resource-links",
  "get-resource-reference",
  "get-structured-content",
  "get-sum",
  "get-tiny-image",
  "gzip-file-as-resource",
  "simulate-research-query",
  "toggle-simulated-logging",
  "toggle-subscriber-updates",
  "trigger-long-running-operation",
];

describe("server-everything over stdio", () => {
  const args = [EVERYTHING, "stdio"];

  it("negotiates 2025-11-25 and lists every tool", { timeout: SLOW }, async () => {
    expect(fs.existsSync(EVERYTHING)).toBe(true);
    const session = await connect(args);
    const { client } = session;
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.revision).toBeDefined();
    expect(client.serverInfo).toMatchObject({
      name: "mcp-servers/everything",
      title: "Everything Reference Server",
    });
    expect(typeof client.serverInfo.version).toBe("string");
    expect(client.capabilities.tools).toEqual({ listChanged: true });
    expect(client.instructions).toEqual(expect.any(String));

    const tools = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect([...names].sort()).toEqual(EVERYTHING_TOOLS);
    for (const tool of tools) expect(tool.inputSchema.type).toBe("object");
    const sum = tools.find((tool) => tool.name === "get-sum");
    expect(Object.keys(sum?.inputSchema.properties ?? {}).sort()).toEqual(["a", "b"]);
    await finish(session);
  });

  it("calls echo and get-sum", { timeout: SLOW }, async () => {
    const session = await connect(args);
    const echo = await session.client.callTool("echo", { message: "héllo, wörld" });
    expect(echo.isError).toBeUndefined();
    expect(echo.text()).toBe("Echo: héllo, wörld");
    expect(echo.content).toEqual([{ type: "text", text: "Echo: héllo, wörld" }]);

    const sum = await session.client.callTool("get-sum", { a: 2, b: 40.5 });
    expect(sum.isError).toBeUndefined();
    expect(sum.text()).toBe("The sum of 2 and 40.5 is 42.5.");
    await finish(session);
  });

  it("delivers progress of a long-running operation to onProgress", { timeout: SLOW }, async () => {
    const session = await connect(args);
    const progress: Progress[] = [];
    const result = await session.client.callTool(
      "trigger-long-running-operation",
      { duration: 0.3, steps: 3 },
      { onProgress: (p) => progress.push(p) },
    );
    expect(result.isError).toBeUndefined();
    expect(result.text()).toBe("Long running operation completed. Duration: 0.3 seconds, Steps: 3.");
    expect(progress).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);

    // The request carried a progress token and every notification echoed it.
    const messages = session.log.entries.map((e) => e.message as Message);
    const token = messages.find((m) => m.method === "tools/call")?.params?._meta?.progressToken;
    expect(token).toBeDefined();
    const tokens = messages
      .filter((m) => m.method === "notifications/progress")
      .map((m) => m.params?.progressToken);
    expect(tokens).toEqual([token, token, token]);
    await finish(session);
  });

  it("reports bad arguments and unknown tools as isError results, not JSON-RPC errors", {
    timeout: SLOW,
  }, async () => {
    const session = await connect(args);
    // The SDK's McpServer turns its own -32602 McpError into a tool error result.
    const bad = await session.client.callTool("get-sum", { a: "one" });
    expect(bad.isError).toBe(true);
    expect(bad.text()).toMatch(
      /^MCP error -32602: Input validation error: Invalid arguments for tool get-sum: /,
    );
    expect(bad.text()).toContain("expected number, received string at a");
    expect(bad.text()).toContain("expected number, received undefined at b");

    const unknown = await session.client.callTool("no-such-tool", {});
    expect(unknown.isError).toBe(true);
    expect(unknown.text()).toBe("MCP error -32602: Tool no-such-tool not found");
    await finish(session);
  });

  it.each(["2024-11-05", "2025-03-26", "2025-06-18"] as const)(
    "negotiates %s when asked for it; tools still work",
    { timeout: SLOW },
    async (version) => {
      const session = await connect(args, version);
      const { client } = session;
      expect(client.protocolVersion).toBe(version);
      const initialize = session.log.entries[0]?.message as Message;
      expect(initialize.method).toBe("initialize");
      expect(initialize.params?.protocolVersion).toBe(version);

      const names = (await client.listTools()).map((tool) => tool.name);
      expect([...names].sort()).toEqual(EVERYTHING_TOOLS);
      const echo = await client.callTool("echo", { message: version });
      expect(echo.text()).toBe(`Echo: ${version}`);
      await finish(session);
    },
  );
});

describe("server-filesystem over stdio", () => {
  let root: string;
  let outside: string;
  let args: string[];

  beforeAll(() => {
    // realpath: the server compares resolved paths (and os.tmpdir() may be a symlink).
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mcpkit-interop-fs-")));
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mcpkit-interop-outside-")));
    fs.writeFileSync(path.join(root, "hello.txt"), "Hello, World!\n");
    fs.writeFileSync(path.join(outside, "secret.txt"), "top secret\n");
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "link.txt"));
    args = [FILESYSTEM, root];
  });

  afterAll(() => {
    for (const dir of [root, outside]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("writes, reads back and lists a file", { timeout: SLOW }, async () => {
    expect(fs.existsSync(FILESYSTEM)).toBe(true);
    const session = await connect(args);
    const { client } = session;
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo).toMatchObject({ name: "secure-filesystem-server" });
    const names = (await client.listTools()).map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(["read_text_file", "read_file", "write_file", "list_directory"]),
    );

    const file = path.join(root, "written.txt");
    const content = "first line\nsecond line ✓\n";
    const written = await client.callTool("write_file", { path: file, content });
    expect(written.isError).toBeUndefined();
    expect(written.text()).toBe(`Successfully wrote to ${file}`);
    expect(fs.readFileSync(file, "utf8")).toBe(content);

    const read = await client.callTool("read_text_file", { path: file });
    expect(read.isError).toBeUndefined();
    expect(read.text()).toBe(content);
    expect(read.structuredContent).toEqual({ content });

    const listing = await client.callTool("list_directory", { path: root });
    expect(listing.isError).toBeUndefined();
    expect(listing.text().split("\n")).toEqual(
      expect.arrayContaining(["[FILE] written.txt", "[FILE] hello.txt"]),
    );
    await finish(session);
  });

  it("refuses paths outside the allowed directory with an isError result", { timeout: SLOW }, async () => {
    const session = await connect(args);
    const secret = path.join(outside, "secret.txt");
    for (const request of [secret, path.join(root, "..", path.basename(outside), "secret.txt")]) {
      const result = await session.client.callTool("read_text_file", { path: request });
      expect(result.isError).toBe(true);
      expect(result.text()).toBe(
        `Access denied - path outside allowed directories: ${secret} not in ${root}`,
      );
    }
    const viaLink = await session.client.callTool("read_text_file", { path: path.join(root, "link.txt") });
    expect(viaLink.isError).toBe(true);
    expect(viaLink.text()).toBe(
      `Access denied - symlink target outside allowed directories: ${secret} not in ${root}`,
    );
    expect(viaLink.text()).not.toContain("top secret");
    await finish(session);
  });

  // The seed's "file-read client", as in the README quick start: connect, list tools, read a file, close.
  it("file-read client", { timeout: SLOW }, async () => {
    const log = vi.spyOn(console, "log");
    try {
      const session = await connect(args);
      const { client } = session;
      const tools = await client.listTools();
      expect(tools.find((tool) => tool.name === "read_text_file")?.description).toEqual(expect.any(String));
      const result = await client.callTool("read_text_file", { path: path.join(root, "hello.txt") });
      expect(result.isError).toBeUndefined();
      expect(result.text()).toBe("Hello, World!\n");
      await finish(session);
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });
});
