/**
 * The seed article's scenario, with real servers: `@modelcontextprotocol/server-filesystem` over
 * stdio on a temp dir holding a few files, and our calculator over Streamable HTTP, both held by
 * one `MultiServerClient`, their tools handed to an agent.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type AgentTool, asTools, McpClient, MultiServerClient } from "../../src/client/index.js";
import { McpServer } from "../../src/server/index.js";
import { createCalculatorServer } from "../../src/servers/index.js";

const FILESYSTEM = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url),
);

/** The files the temp dir holds (a sub-folder beside them is not a file). */
export const FILES = ["alpha.txt", "beta.md", "gamma.json"];

export interface Scenario {
  /** The temp dir, resolved (the filesystem server compares real paths). */
  dir: string;
  /** Holds both servers: `fs` (stdio) and `math` (Streamable HTTP). */
  mcp: MultiServerClient;
  /** Every tool of both servers. */
  tools: AgentTool[];
  close(): Promise<void>;
}

/** A temp dir with {@link FILES} and a sub-folder `notes/`. */
export function makeTempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mcpkit-agent-")));
  for (const name of FILES) fs.writeFileSync(path.join(dir, name), `${name}\n`);
  fs.mkdirSync(path.join(dir, "notes"));
  fs.writeFileSync(path.join(dir, "notes", "inside.txt"), "not at the top level\n");
  return dir;
}

/** Starts the calculator over HTTP and server-filesystem over stdio on a fresh temp dir. */
export async function startScenario(): Promise<Scenario> {
  const dir = makeTempDir();
  const calculator = await createCalculatorServer().serveHttp();
  const mcp = await MultiServerClient.connect(
    {
      fs: { command: process.execPath, args: [FILESYSTEM, dir] },
      math: { url: calculator.url },
    },
    { failOnError: true },
  );
  return {
    dir,
    mcp,
    tools: mcp.tools(),
    async close() {
      await mcp.close();
      await calculator.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A server whose `wait` tool blocks until cancelled, reporting what its handler saw. */
export async function startWaitServer(): Promise<{
  tools: AgentTool[];
  /** Resolves when `wait` starts running on the server. */
  started: Promise<void>;
  /** Resolves with `true` when the handler's signal aborts. */
  cancelled: Promise<boolean>;
  close(): Promise<void>;
}> {
  let onStarted!: () => void;
  let onCancelled!: (value: boolean) => void;
  const started = new Promise<void>((resolve) => (onStarted = resolve));
  const cancelled = new Promise<boolean>((resolve) => (onCancelled = resolve));
  const server = new McpServer({ name: "waiter", version: "1.0.0" }).tool(
    "wait",
    { description: "Waits until cancelled", input: { type: "object", properties: {} } },
    (_args, ctx) =>
      new Promise<string>((resolve) => {
        onStarted();
        ctx.signal.addEventListener("abort", () => {
          onCancelled(true);
          resolve("cancelled");
        });
      }),
  );
  const http = await server.serveHttp();
  const client = await McpClient.connect({ url: http.url });
  return {
    tools: await asTools(client),
    started,
    cancelled,
    async close() {
      await client.close();
      await http.close();
    },
  };
}

/** Counts the `[FILE]` lines of a `list_directory` answer. */
export function countFiles(listing: string): number {
  return listing.split("\n").filter((line) => line.startsWith("[FILE]")).length;
}
