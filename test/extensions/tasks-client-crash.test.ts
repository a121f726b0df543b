/**
 * A client process that started a task is killed mid-run; a new client, in another process, gets
 * the task's result by its id from the same `mcpkit serve everything --http` server.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { CLI, ROOT } from "../cli/run.js";

let server: ChildProcessWithoutNullStreams;
let url: string;

/** Resolves with the first match of `pattern` in what `stream` prints. */
function printed(stream: NodeJS.ReadableStream, pattern: RegExp): Promise<string> {
  let text = "";
  return new Promise((resolve) => {
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      text += chunk;
      const match = pattern.exec(text);
      if (match) resolve(match[1]!);
    });
  });
}

beforeAll(async () => {
  server = spawn(process.execPath, [CLI, "serve", "everything", "--http", "--port", "0"], { cwd: ROOT });
  url = await printed(server.stderr, /listening on (http:\/\/\S+\/mcp)\n/);
}, 60_000);

afterAll(() => {
  if (server && server.exitCode === null) server.kill("SIGKILL");
});

// The client as a user's script runs it, from the built package.
const STARTER = `
  import { McpClient } from "mcpkit/client";
  const client = await McpClient.connect({ url: process.argv[1], protocolVersion: "2026-07-28" });
  const task = await client.callTool("slow_compute", { seconds: 2, label: "crash" }, { task: true });
  console.log("task " + task.id);
  setInterval(() => {}, 1000);
`;

it("gives a new client the result of a task whose client was killed mid-run", async () => {
  const starter = spawn(process.execPath, ["--input-type=module", "-e", STARTER, url], { cwd: ROOT });
  const id = await printed(starter.stdout, /^task (\S+)$/m);
  const exited = new Promise((resolve) => starter.once("exit", resolve));
  starter.kill("SIGKILL");
  await exited;

  const client = await McpClient.connect({ url, protocolVersion: "2026-07-28" });
  try {
    const task = await client.task(id);
    expect((await task.result()).text()).toBe("Computed crash in 2 s");
    expect((await task.status()).status).toBe("completed");
  } finally {
    await client.close();
  }
});
