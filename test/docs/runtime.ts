/**
 * What a runtime of a docs block is (see runtimes.ts), and the checks several share.
 */
import { expect } from "vitest";
import type { CommonClientOptions, McpClient } from "../../src/client/index.js";
import type { ProgramRun } from "./run-block.js";

/** What a runtime can do with its block's program. */
export interface RunContext {
  /** Runs the program to its end; fails, naming the block, unless it exits with 0. */
  program(options?: { env?: Record<string, string>; cwd?: string }): Promise<ProgramRun>;
  /** A client of the program over stdio, closed after the check. */
  stdio(options?: { cwd?: string; extensions?: CommonClientOptions["extensions"] }): Promise<McpClient>;
  /** Starts the program serving HTTP, stopped after the check; gives the URL it prints. */
  http(env: Record<string, string>): Promise<string>;
  /** Runs at the end of the check, last added first. */
  defer(cleanup: () => unknown): void;
}

export interface Runtime {
  setup?: string;
  after?: string;
  /** Programs of other blocks this one starts. */
  uses?: string[];
  check(run: RunContext): Promise<void>;
}

/** The `after` of a block that only makes its `server`: serve it, over stdio unless asked. */
export const SERVE = "await __docs.serve(server);";

/** Calls the calculator of a server in the guides' first example. */
export async function calculates(client: McpClient): Promise<void> {
  const result = await client.callTool("calculator", { expression: "2 + 3 * 4" });
  expect(result.text()).toBe("2 + 3 * 4 = 14");
}

/** A protected server answers without a token with 401 and a challenge, and serves its metadata. */
export async function protectedServer(url: string, issuer: string, resource: string): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
  expect(response.status).toBe(401);
  const challenge = response.headers.get("www-authenticate") ?? "";
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  expect(challenge.startsWith("Bearer"), challenge).toBe(true);
  expect(metadataUrl, challenge).toBeDefined();
  // The metadata's URL is the public one (the resource's origin): ask this server for its path.
  const metadata = await fetch(new URL(new URL(metadataUrl!).pathname, url)).then((r) => r.json());
  expect(metadata).toMatchObject({ resource, authorization_servers: [issuer] });
}
