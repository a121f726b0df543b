/**
 * `mcpkit call` waits for a tool the server runs as a task, and `mcpkit tasks` lists, shows and
 * cancels tasks, against `mcpkit serve everything --http`, and with `--protocol-version` against a
 * server that speaks only 2026-07-28 (test/fixtures/modern-tasks-server.js).
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { CLI, json, mcpkit, ROOT, SLOW } from "./run.js";

let server: ChildProcessWithoutNullStreams;
let url: string;
let modern: ChildProcessWithoutNullStreams;
let modernUrl: string;

/** Starts a server process and gives its URL once it says where it listens. */
function start(args: string[], listening: RegExp): [ChildProcessWithoutNullStreams, Promise<string>] {
  const child = spawn(process.execPath, args, { cwd: ROOT });
  let stderr = "";
  const found = new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = listening.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}: ${stderr}`)));
  });
  return [child, found];
}

beforeAll(async () => {
  const everything = start(
    [CLI, "serve", "everything", "--http", "--port", "0"],
    /mcpkit: everything listening on (http:\/\/\S+\/mcp)\n/,
  );
  const modernOnly = start(
    [join(ROOT, "test/fixtures/modern-tasks-server.js")],
    /listening on (http:\/\/\S+\/mcp)\n/,
  );
  [server, modern] = [everything[0], modernOnly[0]];
  [url, modernUrl] = await Promise.all([everything[1], modernOnly[1]]);
}, 60_000);

afterAll(() => {
  for (const child of [server, modern]) if (child && child.exitCode === null) child.kill("SIGKILL");
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

  it("--protocol-version 2026-07-28 gets and cancels the tasks of a server that speaks only that", async () => {
    const client = await McpClient.connect({ url: modernUrl, protocolVersion: "2026-07-28" });
    const done = await client.callTool("work", { seconds: 0 }, { task: true });
    const running = await client.callTool("work", { seconds: 60 }, { task: true });
    await done.result();
    await client.close();
    const pin = ["--protocol-version", "2026-07-28"];
    const got = await mcpkit(["tasks", "get", done.id, ...pin, modernUrl]);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toMatch(/^status +completed$/m);
    expect(got.stdout).toContain("worked 0 s");
    const cancelled = json(await mcpkit(["tasks", "cancel", running.id, ...pin, "--json", modernUrl]));
    expect(cancelled).toMatchObject({ taskId: running.id, status: "cancelled" });
    const list = await mcpkit(["tasks", "list", ...pin, modernUrl]);
    expect(list.code).not.toBe(0);
    expect(list.stderr).toContain("The tasks extension of protocol 2026-07-28 has no tasks/list");
    const session = await mcpkit(["tasks", "get", done.id, "--protocol-version", "2025-11-25", modernUrl]);
    expect(session.code).toBe(3);
    expect(session.stderr).toContain("unsupported MCP-Protocol-Version 2025-11-25 (supported: 2026-07-28)");
    const both = await mcpkit(["tasks", "get", done.id, "--protocol", "2025-11-25", ...pin, modernUrl]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--protocol 2025-11-25 and --protocol-version 2026-07-28 disagree");
    const typo = await mcpkit(["tasks", "list", "--protocol-version", "2026-07-82", modernUrl]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--protocol-version: no revision "2026-07-82"; did you mean "2026-07-28"?');
  });
});
