/**
 * `mcpkit call` waits for a tool the server runs as a task, and `mcpkit tasks` lists, shows and
 * cancels tasks, against `mcpkit serve everything --http`.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { CLI, json, mcpkit, ROOT, SLOW } from "./run.js";

let server: ChildProcessWithoutNullStreams;
let url: string;

beforeAll(async () => {
  server = spawn(process.execPath, [CLI, "serve", "everything", "--http", "--port", "0"], { cwd: ROOT });
  let stderr = "";
  url = await new Promise((resolve, reject) => {
    server.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const found = /mcpkit: everything listening on (http:\/\/\S+\/mcp)\n/.exec(stderr);
      if (found) resolve(found[1]!);
    });
    server.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}, 60_000);

afterAll(() => {
  if (server.exitCode === null) server.kill("SIGKILL");
});

describe("mcpkit tasks", SLOW, () => {
  it("call waits for a task's result", async () => {
    const call = await mcpkit(["call", "slow_compute", "--arg", "seconds=1", url]);
    expect(call.stderr).toBe("");
    expect(call.stdout).toBe("[text]\nComputed result in 1 s\n");
  });

  it("get shows a task and its result; cancel cancels one; list is for 2025-11-25 sessions", async () => {
    const client = await McpClient.connect({ url, protocolVersion: "2026-07-28" });
    const done = await client.callTool("slow_compute", { seconds: 0, label: "x" }, { task: true });
    const running = await client.callTool("slow_compute", { seconds: 60 }, { task: true });
    await done.result();
    await client.close();
    const got = await mcpkit(["tasks", "get", done.id, url]);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toMatch(new RegExp(`^taskId +${done.id}$`, "m"));
    expect(got.stdout).toMatch(/^status +completed$/m);
    expect(got.stdout).toContain("Computed x in 0 s");
    const cancelled = json(await mcpkit(["tasks", "cancel", running.id, "--json", url]));
    expect(cancelled).toMatchObject({ taskId: running.id, status: "cancelled" });
    const list = await mcpkit(["tasks", "list", url]);
    expect(list.code).not.toBe(0);
    expect(list.stderr).toContain("The tasks extension of protocol 2026-07-28 has no tasks/list");
    const usage = await mcpkit(["tasks", "show", url]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('unknown action "show": use list, get or cancel');
  });
});
