/**
 * `server.fetch` is a web-standard handler: it is served here by Bun.serve and Deno.serve (the
 * `bun` and `deno` npm packages), and mcpkit's client calls it in both eras.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";

const bin = (name: string) => fileURLToPath(new URL(`../../node_modules/.bin/${name}`, import.meta.url));
const SCRIPT = fileURLToPath(new URL("../fixtures/runtimes/serve-fetch.mjs", import.meta.url));

const RUNTIMES = {
  bun: [bin("bun"), "run", SCRIPT],
  deno: [bin("deno"), "run", "--allow-net=127.0.0.1", "--allow-read", "--allow-env", "--allow-sys", SCRIPT],
} as const;

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill("SIGKILL");
  child = undefined;
});

/** Starts the script under `runtime` and resolves with the URL it prints. */
function serve(command: readonly string[]): Promise<string> {
  const [file, ...args] = command;
  const started = spawn(file!, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  child = started;
  let stderr = "";
  started.stderr!.on("data", (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: started.stdout! }).once("line", (line) => resolve(line.trim()));
    started.once("exit", (code) =>
      reject(new Error(`${file} exited with ${code} before listening: ${stderr}`)),
    );
    started.once("error", reject);
  });
}

describe.each(Object.entries(RUNTIMES))("server.fetch under %s", (name, command) => {
  it.for(["2025-11-25", "2026-07-28"] as const)(
    "serves mcpkit's client at %s",
    async (protocolVersion, ctx) => {
      ctx.skip(!existsSync(command[0]), `${name} is not installed (npm ci installs it as a devDependency)`);
      const url = await serve(command);
      const client = await McpClient.connect({ url, protocolVersion });
      try {
        expect(client.protocolVersion).toBe(protocolVersion);
        expect((await client.listTools()).map((tool) => tool.name)).toContain("test_simple_text");
        expect((await client.callTool("test_simple_text", {})).text()).toBe(
          "This is a simple text response for testing.",
        );
      } finally {
        await client.close();
      }
    },
  );
});
