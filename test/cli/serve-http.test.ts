/**
 * `mcpkit serve everything --http --port 0` prints its URL on stderr; the CLI's own client commands
 * then work against it over Streamable HTTP and legacy SSE; SIGTERM stops it with exit code 0.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, json, mcpkit, ROOT, SLOW } from "./run.js";

let server: ChildProcessWithoutNullStreams;
let url: string;
let serverStderr = "";

/** Starts `mcpkit serve everything --http --port 0` and waits for the URL on its stderr. */
function serveHttp(): Promise<string> {
  server = spawn(process.execPath, [CLI, "serve", "everything", "--http", "--port", "0"], { cwd: ROOT });
  return new Promise((resolve, reject) => {
    server.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      serverStderr += chunk;
      const found = /mcpkit: everything listening on (http:\/\/\S+\/mcp)\n/.exec(serverStderr);
      if (found && serverStderr.includes("legacy HTTP+SSE clients")) resolve(found[1]!);
    });
    server.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${serverStderr}`)));
  });
}

beforeAll(async () => {
  url = await serveHttp();
}, 60_000);

afterAll(() => {
  if (server.exitCode === null) server.kill("SIGKILL");
});

describe("mcpkit serve everything --http --port 0", SLOW, () => {
  it("prints the Streamable HTTP URL (a free port) and the legacy SSE one on stderr", () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(url).not.toContain(":0/");
    expect(serverStderr).toContain(`mcpkit: legacy HTTP+SSE clients: ${url.replace(/\/mcp$/, "/sse")}`);
  });

  it("inspect, tools, call, read, prompt and complete work over Streamable HTTP", async () => {
    const inspect = await mcpkit(["inspect", url]);
    expect(inspect.code, inspect.stderr).toBe(0);
    expect(inspect.stdout).toMatch(/^Server\s+mcpkit-everything 1\.0\.0 \(mcpkit everything server\)$/m);
    const tools = json(await mcpkit(["tools", "--json", url]));
    expect(tools.tools.map((t: { name: string }) => t.name)).toContain("test_simple_text");
    const call = await mcpkit(["call", "test_simple_text", url]);
    expect(call.stdout).toBe("[text]\nThis is a simple text response for testing.\n");
    const read = await mcpkit(["read", "test://static-text", url]);
    expect(read.stdout).toBe(
      "[text/plain] test://static-text\nThis is the content of the static text resource.\n",
    );
    const prompt = await mcpkit([
      "prompt",
      "test_prompt_with_arguments",
      "--arg",
      "arg1=a",
      "--arg",
      "arg2=b",
      "--json",
      url,
    ]);
    expect(json(prompt).messages[0].content.text).toContain("arg1='a'");
    const catalog = "test://catalog/{category}/{item}";
    const categories = await mcpkit(["complete", "template", catalog, "category", "", url]);
    expect(categories.code, categories.stderr).toBe(0);
    expect(categories.stdout).toBe("fruits\nvegetables\n");
    const items = await mcpkit([
      "complete",
      "template",
      catalog,
      "item",
      "a",
      "--context",
      "category=fruits",
      url,
    ]);
    expect(items.stdout).toBe("apple\napricot\n");
  });

  it("--transport sse reaches the legacy endpoint; --header is sent", async () => {
    const sse = await mcpkit([
      "call",
      "test_simple_text",
      "--transport",
      "sse",
      url.replace(/\/mcp$/, "/sse"),
    ]);
    expect(sse.code, sse.stderr).toBe(0);
    expect(sse.stdout).toContain("This is a simple text response for testing.");
    const withHeader = await mcpkit(["tools", "-H", "X-Test: yes", "--transport", "streamable-http", url]);
    expect(withHeader.code, withHeader.stderr).toBe(0);
  });

  it("images and audio are summarised over HTTP too", async () => {
    const image = await mcpkit(["call", "test_image_content", url]);
    expect(image.stdout).toMatch(/^\[image\] image\/png, \d+ B \(data not shown; --json includes it\)$/m);
    const audio = await mcpkit(["call", "test_audio_content", url]);
    expect(audio.stdout).toMatch(
      /^\[audio\] audio\/wav, [\d.]+ k?B \(data not shown; --json includes it\)$/m,
    );
  });

  it("SIGTERM stops the server with exit code 0", async () => {
    const exited = new Promise<number | null>((resolve) => server.on("exit", resolve));
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
