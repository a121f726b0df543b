/**
 * How each runnable block of the docs runs, by its `file:` name, and what the test checks: what a
 * reader of the guide expects it to do. `setup` runs before the block (it makes the globals the
 * fragment uses, with `__docs`, the preamble; `@docs/` is this folder), `after` after it, with the
 * block's names in scope.
 */
import { expect } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { countFiles } from "../agent/scenario.js";
import { lastToolResult, startScriptedOpenAI } from "../fixtures/openai-server.js";
import { startRedis } from "../redis/helpers/redis-server.js";
import { EXTENSION_RUNTIMES } from "./extension-runtimes.js";
import { calculates, protectedServer, type Runtime } from "./runtime.js";

export type { RunContext, Runtime } from "./runtime.js";

export const RUNTIMES: Record<string, Runtime> = {
  ...EXTENSION_RUNTIMES,
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

  "middleware-placed.ts": {
    setup: "await __docs.servedServer();",
    after: [
      'const refused = await client.callTool("echo", { text: "hi" }).then((r) => r.text(), (e) => e.message);',
      "__docs.report({ refused });",
      "await __docs.close();",
    ].join("\n"),
    async check(run) {
      const { report } = await run.program();
      expect(report.refused).toContain("Sign in first");
    },
  },

  "middleware-outgoing.ts": {
    setup: "await __docs.servedServer();",
    after: [
      'const text = (await client.callTool("echo", { text: "the key is sk-…" })).text();',
      "__docs.report({ text });",
      "await __docs.close();",
    ].join("\n"),
    async check(run) {
      const { report } = await run.program();
      expect(report.text).toContain("the key is [redacted]");
      expect(report.text).not.toContain("sk-");
    },
  },

  // docs/observability.md
  "otel.ts": {
    setup: [
      "await __docs.tracing();",
      "await __docs.servedServer();",
      "__docs.configOf(globalThis.url);",
      "__docs.openAiModel();",
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
