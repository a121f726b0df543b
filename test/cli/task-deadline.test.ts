/**
 * A call that runs as a task honours `--timeout` as its overall deadline (the task is cancelled,
 * exit 3), `call --task` prints the task it starts, and `tasks list` says what each revision lists,
 * against `mcpkit serve everything --http` (its `slow_compute` runs as a task and stops when cancelled).
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, json, mcpkit, ROOT, SLOW } from "./run.js";

let server: ChildProcessWithoutNullStreams;
let url: string;

beforeAll(async () => {
  server = spawn(process.execPath, [CLI, "serve", "everything", "--http", "--port", "0"], { cwd: ROOT });
  let stderr = "";
  url = await new Promise<string>((resolve, reject) => {
    server.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const found = /mcpkit: everything listening on (http:\/\/\S+\/mcp)\n/.exec(stderr);
      if (found) resolve(found[1]!);
    });
    server.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}, 60_000);

afterAll(() => {
  if (server && server.exitCode === null) server.kill("SIGKILL");
});

/** The task id a deadline message names. */
const DEADLINE =
  /^mcpkit: "slow_compute" did not finish within 3 s \(--timeout\): its task (\S+) was cancelled\n$/;

describe("--timeout on a call that runs as a task", SLOW, () => {
  for (const era of [[], ["--protocol", "2025-11-25"]]) {
    it(`cancels the task past the deadline and exits 3 ${era.join(" ") || "(2026-07-28)"}`, async () => {
      const run = await mcpkit([
        "call",
        "slow_compute",
        "--arg",
        "seconds=600",
        "--timeout",
        "3s",
        ...era,
        url,
      ]);
      expect(run.code, run.stderr).toBe(3);
      expect(run.stdout).toBe("");
      const id = DEADLINE.exec(run.stderr)?.[1];
      expect(id, run.stderr).toBeDefined();
      const got = json(await mcpkit(["tasks", "get", id!, "--json", ...era, url]));
      expect(got).toMatchObject({ taskId: id, status: "cancelled" });
    });
  }
});

describe("call --task and tasks list", SLOW, () => {
  it("the help's first example starts a task, and tasks get and cancel reach it by its id", async () => {
    const help = await mcpkit(["tasks", "--help"]);
    expect(help.stdout).toMatch(/Examples:\n {2}\$ mcpkit call slow_compute --arg seconds=60 --task /);
    const started = await mcpkit(["call", "slow_compute", "--arg", "seconds=600", "--task", url]);
    expect(started.code, started.stderr).toBe(0);
    const id = /^taskId +(\S+)$/m.exec(started.stdout)?.[1];
    expect(id, started.stdout).toBeDefined();
    expect(started.stdout).toMatch(/^status +working$/m);
    expect(started.stderr).toContain(`runs as task ${id}: mcpkit tasks get ${id} (with the same server)`);
    const got = await mcpkit(["tasks", "get", id!, url]);
    expect(got.stdout).toMatch(/^status +working$/m);
    const cancelled = json(await mcpkit(["tasks", "cancel", id!, "--json", url]));
    expect(cancelled).toMatchObject({ taskId: id, status: "cancelled" });
  });

  it("call --task of a tool the server answers at once shows the result and says so", async () => {
    const run = await mcpkit(["call", "greet", "--arg", "name=Ada", "--task", url]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("[text]\nHello, Ada!\n");
    expect(run.stderr).toBe('mcpkit: the server answered "greet" at once, not as a task\n');
  });

  it("list: 2026-07-28 has no listing and says how to reach a task; 2025-11-25 says a run is a new session", async () => {
    const modern = await mcpkit(["tasks", "list", url]);
    expect(modern.code).toBe(2);
    expect(modern.stderr).toContain(
      "no task listing (The tasks extension of protocol 2026-07-28 has no tasks/list)",
    );
    expect(modern.stderr).toContain(
      "mcpkit call TOOL --task (it prints the task's id), then mcpkit tasks get ID",
    );
    const legacy = await mcpkit(["tasks", "list", "--protocol", "2025-11-25", url]);
    expect(legacy.code, legacy.stderr).toBe(0);
    expect(legacy.stdout).toBe("no tasks\n");
    expect(legacy.stderr).toContain(
      "each mcpkit run is a new session; a task of another session is still reached by its id",
    );
    const quiet = await mcpkit(["tasks", "list", "--protocol", "2025-11-25", "--quiet", url]);
    expect(quiet.stderr).toBe("");
  });
});
