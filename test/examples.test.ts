import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
const example = (name: string) => join(root, "build/examples", name);
const SLOW = 60_000;

/** Runs an example as a user would, offline: no OpenAI settings, so the agent's model is scripted. */
async function runExample(name: string): Promise<string> {
  const { OPENAI_API_KEY: _key, OPENAI_BASE_URL: _url, ...env } = process.env;
  const { stdout } = await run(process.execPath, [example(name)], { cwd: root, env, timeout: SLOW });
  return stdout;
}

describe("the examples, as built from examples/", () => {
  it("npm start shows the handshake, the tool list and tool results, offline", async () => {
    const { stdout } = await run(process.execPath, [example("start.js")], { cwd: root });
    // Both sides speak 2026-07-28: the client discovers the server instead of a handshake.
    expect(stdout).toContain('→ {"jsonrpc":"2.0","id":1,"method":"server/discover"');
    expect(stdout).toContain('"io.modelcontextprotocol/protocolVersion":"2026-07-28"');
    expect(stdout).toContain(
      '← {"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28","2025-11-25"',
    );
    expect(stdout).toContain("protocol 2026-07-28");
    expect(stdout).toContain("calculator: Evaluate an arithmetic expression");
    expect(stdout).toContain('calculator("123 * 456") → 123 * 456 = 56088');
    expect(stdout).toContain('calculator("1 / 0") → tool error: division by zero');
    expect(stdout).toContain("Closed; the server process has exited.");
  });

  it("the OAuth client signs in at an in-process authorization server and calls a protected tool", async () => {
    const stdout = await runExample("oauth-client.js");
    expect(stdout).toMatch(
      /sign in at http:\/\/127\.0\.0\.1:\d+\/auth: scope=notes:read offline_access, PKCE S256/,
    );
    expect(stdout).toContain("read_notes → 1. Buy milk  2. Call Bob");
    expect(stdout).toContain("token: bearer, scope notes:read, refresh token kept");
    expect(stdout).toContain("Closed.");
  });

  it("the calculator server works for the official SDK client", async () => {
    const client = new Client({ name: "sdk", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [example("calculator-server.js")],
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["calculator"]);
      expect(tools[0]!.inputSchema).toMatchObject({
        properties: { expression: { type: "string" } },
        required: ["expression"],
      });
      const result = await client.callTool({ name: "calculator", arguments: { expression: "2 + 3 * 4" } });
      expect(result.content).toEqual([{ type: "text", text: "2 + 3 * 4 = 14" }]);
      const failed = await client.callTool({
        name: "calculator",
        arguments: { expression: "process.exit(1)" },
      });
      expect(failed.isError).toBe(true);
      expect((failed.content as { text: string }[])[0]!.text).toContain('unknown identifier "process"');
    } finally {
      await client.close();
    }
  });

  it("the file-read client reads a file through server-filesystem", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpkit-read-"));
    try {
      writeFileSync(join(dir, "hello.txt"), "Hello, World!\nsecond line\n");
      const { stdout } = await run(process.execPath, [example("read-file.js"), dir, "hello.txt"], {
        cwd: root,
      });
      expect(stdout).toContain("tool: read_text_file");
      expect(stdout).toContain("content:\nHello, World!\nsecond line");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the notes client reads, completes, prompts and answers sampling, elicitation and roots", {
    timeout: SLOW,
  }, async () => {
    const stdout = await runExample("notes-client.js");
    expect(stdout).toContain('notes://index: "groceries\\nmeeting"');
    expect(stdout).toContain('notes://meeting: "Thursday 10:00 with Ada');
    expect(stdout).toContain("ids starting with g: [ 'groceries' ]");
    expect(stdout).toContain('prompt: "Summarise this note in one sentence:\\n\\nMilk, eggs');
    expect(stdout).toContain('log (info): "summarised groceries with scripted-llm"\n  → In short: Milk.');
    expect(stdout).toContain(
      'the server asks: Save "Water the plants" under which id?\n  → Saved as notes://todo',
    );
    expect(stdout).toContain("resource updated: notes://index");
    expect(stdout).toContain("→ work: file:///work\n  → other: file:///other");
    expect(stdout).toContain(
      'as a tool: "other: file:///other"; as it came: [{"type":"text","text":"other: file:///other"}]',
    );
  });

  it("the MCP App's host finds a tool's UI, reads and checks it, and hides app-only tools from the model", {
    timeout: SLOW,
  }, async () => {
    const stdout = await runExample("mcp-app.js");
    expect(stdout).toContain("tools for the model: forecast\n");
    expect(stdout).toContain("refresh_forecast → ui://weather/forecast.html");
    expect(stdout).toMatch(
      /ui:\/\/weather\/forecast\.html: text\/html;profile=mcp-app, \d+ characters of HTML/,
    );
    expect(stdout).toContain("connect-src allowed: https://api.weather.example");
    expect(stdout).toContain('forecast("Paris") → Paris: see the chart');
    expect(stdout).toContain('without MCP Apps: forecast("Paris") → Paris: sunny all week');
  });

  it("the skills host lists, loads and verifies a skill published from a folder, and reads only listed files", {
    timeout: SLOW,
  }, async () => {
    const stdout = await runExample("skills.js");
    expect(stdout).toContain(
      "skill://team/release-notes/SKILL.md: Write the release notes of a version from its merged changes (2 files)",
    );
    expect(stdout).toContain(
      "loaded release-notes, license MIT; first step: 1. List the changes merged since the last tag.",
    );
    expect(stdout).toContain("references/STYLE.md: Sections: Breaking, Added, Fixed.");
    expect(stdout).toContain("refused: skill://team/release-notes/references/SECRET.md is not a file of");
  });

  it("the HTTP server answers Streamable HTTP with progress, HTTP+SSE and its fetch handler", {
    timeout: SLOW,
  }, async () => {
    const stdout = await runExample("http-server.js");
    expect(stdout).toMatch(/^Streamable HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp$/m);
    expect(stdout).toContain(
      "Streamable HTTP client: protocol 2026-07-28\n  progress 1/3 3…\n  progress 2/3 2…\n  progress 3/3 1…\n  → Lift-off!",
    );
    expect(stdout).toContain("HTTP+SSE client: protocol 2024-11-05\n  → Lift-off!");
    expect(stdout).toContain("fetch-handler client: protocol 2026-07-28\n  → Lift-off!");
    expect(stdout).toContain("Closed.");
  });

  it("the protected server refuses a client without a token, serves one with, and checks a tool's scope", {
    timeout: SLOW,
  }, async () => {
    const stdout = await runExample("protected-server.js");
    expect(stdout).toMatch(
      /^Without a token: 401 Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp", scope="notes:read"$/m,
    );
    expect(stdout).toContain('"scopes_supported":["notes:read","notes:write"]');
    expect(stdout).toContain("Notes for agent:\nBuy milk\n");
    expect(stdout).toContain(
      "add_note with notes:read only: Forbidden: tool add_note needs scope notes:write",
    );
    expect(stdout).toContain('add_note with notes:write: Added "Call Ada"');
    expect(stdout).toContain("Closed.");
  });

  it("one handler elicits in a 2025-11-25 session and through input_required in 2026-07-28", {
    timeout: SLOW,
  }, async () => {
    const stdout = await runExample("both-eras.js");
    expect(stdout).toContain(
      [
        "Protocol 2025-11-25:",
        "  → tools/call greet",
        "  ← elicitation/create",
        "  the user is asked: What is your name?",
        "  → result",
        "  ← result",
        "  greet → Hello, Ada!",
        "Protocol 2026-07-28:",
        "  → tools/call greet",
        "  ← result: input_required, asking name",
        "  the user is asked: What is your name?",
        "  → tools/call greet (with inputResponses and requestState)",
        "  ← result",
        "  greet → Hello, Ada!",
      ].join("\n"),
    );
  });

  it("the agent counts the files with one server's tool and multiplies with another's", {
    timeout: SLOW,
  }, async () => {
    const stdout = await runExample("agent.js");
    expect(stdout).toMatch(/^→ list_directory \{"path":".*mcpkit-example-.*"\}$/m);
    expect(stdout).toContain("← list_directory: [FILE] data.json | [FILE] notes.txt | [FILE] plan.md");
    expect(stdout).toContain('→ calculator {"expression":"3 * 7"}\n← calculator: 3 * 7 = 21');
    expect(stdout).toContain("The folder holds 3 files, and 3 * 7 = 21. (3 steps)");
  });

  it("the LangChain agent and the AI SDK call the same MCP tools", { timeout: SLOW }, async () => {
    const [langgraph, aiSdk] = await Promise.all([runExample("langgraph.js"), runExample("ai-sdk.js")]);
    expect(langgraph).toContain("tool: [FILE] data.json | [FILE] notes.txt | [FILE] plan.md");
    expect(langgraph).toContain('ai: → calculator {"expression":"3 * 7"}\ntool: 3 * 7 = 21');
    expect(langgraph).toContain("ai: 3 * 7 = 21, seven times the files in the folder.");
    expect(aiSdk).toContain('calculator {"expression":"3 * 7"} → 3 * 7 = 21');
    expect(aiSdk).toContain("3 * 7 = 21: seven times the files in the folder.");
  });

  it("the proxy serves examples/mcp.json as one server, write tools hidden, calls audited", {
    timeout: SLOW,
  }, async () => {
    const stdout = await runExample("proxy.js");
    expect(stdout).toContain('Upstreams: math, files; hidden tools: {"files":3}');
    expect(stdout).toContain("  files__list_directory\n");
    expect(stdout).toContain("  math__calculator\n");
    expect(stdout).not.toMatch(/^ {2}files__(write|edit|move)_/m);
    expect(stdout).toContain("math__calculator → 6 * 7 = 42");
    expect(stdout).toContain("files__write_file → Unknown tool: files__write_file");
    expect(stdout).toMatch(/^ {2}math\/calculator: ok \(arguments [0-9a-f]{12}…\)$/m);
    expect(stdout).toMatch(/^ {2}files\/list_directory: ok /m);
  });

  it("middleware times, logs with secrets redacted, checks auth; the client tags requests", async () => {
    const stdout = await runExample("middleware.js");
    expect(stdout).toMatch(/\[server\] initialize \(legacy\) took [\d.]+ ms: ok/);
    expect(stdout).toContain('[server] call login {"user":"ada","password":"[redacted]"} request r1');
    expect(stdout).not.toContain("hunter2");
    expect(stdout).toContain("welcome, ada");
    expect(stdout).toMatch(/\[server\] tools\/call admin_reset \(legacy\) took [\d.]+ ms: error -32600/);
    expect(stdout).toContain("admin_reset refused: admin_reset needs the admin scope");
  });

  it("tracing puts the server's span under the client's, a tool error marked", async () => {
    const stdout = await runExample("tracing.js");
    expect(stdout).toContain("sunny in Paris");
    expect(stdout).toMatch(/^CLIENT tools\/call get_weather {2}gen_ai\.tool\.name=get_weather/m);
    expect(stdout).toMatch(/^ {2}SERVER tools\/call get_weather .*jsonrpc\.request\.id=\d+$/m);
    expect(stdout).toMatch(/^ {2}SERVER tools\/call get_weather .*error\.type=tool_error$/m);
  });

  it("the CLI takes a server from examples/mcp.json, whatever the working directory", {
    timeout: SLOW,
  }, async () => {
    const { stdout } = await run(
      process.execPath,
      [
        join(root, "dist/cli/main.js"),
        "call",
        "calculator",
        "--arg",
        "expression=2^10",
        "--config",
        join(root, "examples/mcp.json"),
        "math",
      ],
      { cwd: tmpdir() },
    );
    expect(stdout).toContain("2^10 = 1024");
  });
});
