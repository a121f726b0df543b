/**
 * How each runnable block of the docs runs, by its `file:` name, and what the test checks: what a
 * reader of the guide expects it to do. `setup` runs before the block (it makes the globals the
 * fragment uses, with `__docs`, the preamble; `@docs/` is this folder), `after` after it, with the
 * block's names in scope.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { type CommonClientOptions, McpClient } from "../../src/client/index.js";
import { countFiles } from "../agent/scenario.js";
import { lastToolResult, startScriptedOpenAI } from "../fixtures/openai-server.js";
import { startRedis } from "../redis/helpers/redis-server.js";
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
const SERVE = "await __docs.serve(server);";

/** Calls the calculator of a server in the guides' first example. */
async function calculates(client: McpClient): Promise<void> {
  const result = await client.callTool("calculator", { expression: "2 + 3 * 4" });
  expect(result.text()).toBe("2 + 3 * 4 = 14");
}

/** A protected server answers without a token with 401 and a challenge, and serves its metadata. */
async function protectedServer(url: string, issuer: string, resource: string): Promise<void> {
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

export const RUNTIMES: Record<string, Runtime> = {
  // README.md
  "server.ts": { check: async (run) => calculates(await run.stdio()) },
  "client.ts": {
    uses: ["server.ts"],
    async check(run) {
      const { stdout } = await run.program();
      expect(stdout).toContain("my-calculator");
      expect(stdout).toContain("calculator - Evaluate an arithmetic expression");
      expect(stdout).toContain("content: 2 + 3 * 4 = 14");
    },
  },

  // docs/agents.md
  "agent.ts": {
    async check(run) {
      const named = (tools: { function: { name: string } }[] | undefined, end: string) =>
        tools?.find((tool) => tool.function.name.endsWith(end))?.function.name ?? end;
      let files = 0;
      const openai = await startScriptedOpenAI([
        (request) => ({
          toolCalls: [{ name: named(request.tools, "list_directory"), arguments: { path: "/tmp" } }],
        }),
        (request) => {
          files = countFiles(lastToolResult(request));
          return {
            toolCalls: [
              { name: named(request.tools, "calculator"), arguments: { expression: `${files} * 7` } },
            ],
          };
        },
        (request) => ({ content: `/tmp holds ${files} files; ${lastToolResult(request)}.` }),
      ]);
      run.defer(() => openai.close());
      const { stdout, stderr } = await run.program({
        env: { OPENAI_BASE_URL: openai.baseURL, OPENAI_API_KEY: "sk-docs" },
      });
      expect(stderr).not.toContain("left out");
      expect(stdout).toMatch(/^→ \S*list_directory \{"path":"\/tmp"\}$/m);
      expect(stdout).toContain(`/tmp holds ${files} files; ${files} * 7 = ${files * 7}. (3 steps)`);
    },
  },
  "adapters.ts": {
    setup: 'import { adapterModels } from "@docs/models.js";\nawait __docs.mcp();\nadapterModels();',
    after: [
      'const state = await lcAgent.invoke({ messages: [{ role: "user", content: "Show me a simple text" }] });',
      "__docs.report({ text, langchain: state.messages.at(-1)?.text });",
      "await __docs.close();",
    ].join("\n"),
    async check(run) {
      const { report } = await run.program();
      const said = "This is a simple text response for testing.";
      expect(report).toEqual({ text: `AI SDK got: ${said}`, langchain: `LangChain got: ${said}` });
    },
  },

  // docs/auth.md
  "notes-auth-server.ts": {
    setup: "__docs.notesCode();",
    async check(run) {
      const url = await run.http({ PORT: "0" });
      await protectedServer(url, "https://auth.example.com", "https://notes.example.com/mcp");
    },
  },

  // docs/clients.md
  "filesystem-client.ts": {
    async check(run) {
      const { stdout } = await run.program();
      expect(stdout).toContain("secure-filesystem-server");
      expect(stdout).toContain("read_text_file -");
      // Whether /tmp/hello.txt exists is the machine's business: either answer is printed.
      expect(stdout).toMatch(/^(content:|tool failed:) /m);
    },
  },
  "notes-client.ts": {
    uses: ["notes-server.ts"],
    after: "__docs.report({ contents, prompt, values });",
    async check(run) {
      const { report } = await run.program();
      expect(report).toMatchObject({
        contents: [{ uri: "notes://index", text: "a\nb" }],
        prompt: {
          messages: [{ role: "user", content: { type: "text", text: "Summarise note a in one sentence." } }],
        },
        values: ["a", "b"],
      });
    },
  },

  // docs/extensions.md
  "echo-extension.ts": {
    after: SERVE,
    async check(run) {
      // A client that speaks the extension, as its methods require.
      const client = await run.stdio({ extensions: [{ id: "example.com/echo", settings: {} }] });
      expect(client.serverExtension("example.com/echo")).toEqual({});
      expect(await client.request("echo/say", { text: "hi" })).toMatchObject({ said: "hi" });
    },
  },
  "jobs-server.ts": {
    setup: "__docs.jobsCode();",
    after: SERVE,
    async check(run) {
      const client = await run.stdio();
      const tools = await client.listTools();
      expect(tools.find((tool) => tool.name === "render")).toBeDefined();
    },
  },
  "jobs-client.ts": {
    uses: ["jobs-server.ts"],
    setup: 'await __docs.clients(await __docs.httpServerBlock("jobs-server.js"), { go: true });',
    after: [
      "const sameTask = (await again.result()).text();",
      "__docs.report({ result: result.text(), sameTask });",
      "await __docs.close();",
    ].join("\n"),
    async check(run) {
      const { report, stdout } = await run.program();
      expect(stdout).toMatch(/^completed/m);
      expect(report).toEqual({ result: "rendered a", sameTask: "rendered a" });
    },
  },
  "skills-server.ts": {
    after: SERVE,
    async check(run) {
      const client = await run.stdio({ cwd: skillsFolder(run) });
      const uris = (await client.listResources()).map((resource) => resource.uri);
      expect(uris).toContain("skill://team/release-notes/SKILL.md");
    },
  },
  "skills-host.ts": {
    uses: ["skills-server.ts"],
    setup: 'await __docs.stdioClient("skills-server.js", process.env.SKILLS_CWD);',
    after: [
      "__docs.report({ uris: entries.map((entry) => entry.uri), rejected, style });",
      "await __docs.close();",
    ].join("\n"),
    async check(run) {
      const { report } = await run.program({ env: { SKILLS_CWD: skillsFolder(run) } });
      expect(report).toEqual({ uris: ["skill://team/release-notes/SKILL.md"], rejected: [], style: STYLE });
    },
  },
  "weather-server.ts": {
    setup: "__docs.weatherCode();",
    after: SERVE,
    async check(run) {
      const client = await run.stdio();
      const { contents } = await client.readResource("ui://weather/forecast.html");
      expect(contents[0]).toMatchObject({ uri: "ui://weather/forecast.html" });
      expect((contents[0] as { text: string }).text).toContain("<title>Forecast</title>");
      expect((await client.callTool("forecast", { city: "Oslo" })).text()).toBe("Sunny in Oslo");
    },
  },
  "weather-host.ts": {
    uses: ["weather-server.ts"],
    setup: 'globalThis.url = await __docs.httpServerBlock("weather-server.js");',
    after: [
      "__docs.report({ tools: tools.map((tool) => tool.name), view: { uri: view.uri, html: view.html } });",
      "await client.close();",
      "await __docs.close();",
    ].join("\n"),
    async check(run) {
      const { report } = await run.program();
      expect(report).toMatchObject({
        tools: ["forecast"],
        view: { uri: "ui://weather/forecast.html", html: expect.stringContaining("<title>Forecast</title>") },
      });
    },
  },

  // docs/middleware.md
  "middleware.ts": {
    setup: "await __docs.servedServer();",
    after: [
      'const denied = await client.callTool("admin_reset", {}).then((r) => r.text(), (e) => e.message);',
      'const echoed = JSON.parse((await client.callTool("echo", { text: "hi" })).text());',
      "__docs.report({ denied, echoed });",
      "await __docs.close();",
    ].join("\n"),
    async check(run) {
      const { report, stderr } = await run.program();
      expect(report.denied).toContain("Needs the admin scope");
      expect(report.echoed).toMatchObject({
        text: "hi",
        meta: { "example.com/request": expect.stringMatching(/^[\da-f-]{36}$/) },
      });
      expect(stderr).toMatch(/^echo [\d.]+ ms$/m);
    },
  },

  // docs/observability.md
  "otel.ts": {
    setup: [
      "await __docs.tracing();",
      "await __docs.servedServer();",
      "__docs.configOf(globalThis.url);",
      "await __docs.openAiModel();",
    ].join("\n"),
    after: [
      'const { output } = await agent.run("Echo hi");',
      "await client.close();",
      "await mcp.close();",
      "__docs.report({ output, spans: __docs.spanNames() });",
      "await __docs.close();",
    ].join("\n"),
    async check(run) {
      const openai = await startScriptedOpenAI([
        (request) => ({
          toolCalls: [
            {
              name: request.tools!.find((t) => t.function.name.endsWith("echo"))!.function.name,
              arguments: { text: "hi" },
            },
          ],
        }),
        (request) => ({ content: `said ${JSON.parse(lastToolResult(request)).text}` }),
      ]);
      run.defer(() => openai.close());
      const { report } = await run.program({
        env: { OPENAI_BASE_URL: openai.baseURL, OPENAI_API_KEY: "sk-docs" },
      });
      expect(report.output).toBe("said hi");
      // The agent's run, the client's call and the server's answer, each a span.
      expect(report.spans).toEqual(expect.arrayContaining([expect.stringContaining("tools/call")]));
      expect((report.spans as string[]).length).toBeGreaterThanOrEqual(3);
    },
  },

  // docs/replicas.md
  "replica.ts": {
    setup: "__docs.server();",
    async check(run) {
      const redis = await startRedis();
      run.defer(() => redis.stop());
      const url = await run.http({
        REDIS_URL: redis.url,
        PORT: "0",
        MCPKIT_REQUEST_STATE_SECRET: "s".repeat(32),
      });
      // Bound to every address: reach it on the loopback one.
      const client = await McpClient.connect({ url: url.replace("0.0.0.0", "127.0.0.1") });
      run.defer(() => client.close());
      expect(JSON.parse((await client.callTool("echo", { text: "hi" })).text())).toMatchObject({
        text: "hi",
      });
    },
  },
  "replication-options.ts": {
    after: "__docs.report({ taskStore: typeof replication.taskStore });\nawait replication.close();",
    async check(run) {
      const redis = await startRedis();
      run.defer(() => redis.stop());
      const { report } = await run.program({ env: { REDIS_URL: redis.url } });
      expect(report).toEqual({ taskStore: "function" });
    },
  },

  // docs/security.md
  "entra-server.ts": {
    setup: "__docs.server();",
    async check(run) {
      const url = await run.http({ PORT: "0" });
      await protectedServer(
        url,
        "https://login.microsoftonline.com/<tenant>/v2.0",
        "https://notes.example.com/mcp",
      );
    },
  },

  // docs/servers.md
  "calculator-server.ts": { check: async (run) => calculates(await run.stdio()) },
  "notes-server.ts": {
    async check(run) {
      const client = await run.stdio();
      expect((await client.readResource("notes://b")).contents).toMatchObject([{ text: "note b" }]);
      const { values } = await client.complete(
        { type: "ref/resource", uri: "notes://{id}" },
        { name: "id", value: "b" },
      );
      expect(values).toEqual(["b"]);
    },
  },

  // docs/transports.md
  "http-transport.ts": {
    setup: "__docs.server();",
    after: "__docs.report({ url: http.url, server: client.serverInfo.name });",
    async check(run) {
      const { report } = await run.program();
      expect(report).toEqual({
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/),
        server: "demo",
      });
    },
  },
};

const STYLE = "Short sentences. One change a line.\n";

/** A folder holding ./skills with one skill, release-notes, and its style guide. */
function skillsFolder(run: RunContext): string {
  const dir = mkdtempSync(join(tmpdir(), "mcpkit-docs-skills-"));
  const skill = join(dir, "skills", "release-notes");
  mkdirSync(join(skill, "references"), { recursive: true });
  writeFileSync(
    join(skill, "SKILL.md"),
    "---\nname: release-notes\ndescription: Writes release notes in the team's style.\n---\nRead references/STYLE.md first.\n",
  );
  writeFileSync(join(skill, "references", "STYLE.md"), STYLE);
  run.defer(() => import("node:fs").then((fs) => fs.rmSync(dir, { recursive: true, force: true })));
  return dir;
}
