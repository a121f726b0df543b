/**
 * The proxy as a library: `createProxyServer` over in-process HTTP upstreams, served to an McpClient
 * over an in-memory transport; the filter, the canonical JSON and digest, the audit log file.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text with ${VAR} references
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, McpClient } from "../../src/client/index.js";
import { ErrorCode, McpError } from "../../src/jsonrpc/index.js";
import type { ProtocolVersion } from "../../src/protocol/revisions/index.js";
import {
  AuditLog,
  type AuditRecord,
  canonicalJson,
  checkProxyConfig,
  createProxyServer,
  digestArguments,
  matchesPattern,
  type ProxyOptions,
  type ProxyServer,
  parseToolRule,
  ToolPolicy,
} from "../../src/proxy/index.js";
import { McpServer } from "../../src/server/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory/index.js";
import { until } from "../helpers/until.js";

let cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  cleanups = [];
});

/** An upstream with a tool of each outcome, a resource, a template and a prompt, served over HTTP. */
async function upstream(label: string): Promise<{ server: McpServer; http: HttpServerHandle }> {
  const server = new McpServer({ name: `${label}-server`, version: "2.0.0", instructions: `Ask ${label}.` })
    .tool(
      "echo",
      {
        description: "Echoes",
        input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      },
      ({ text }, ctx) => {
        ctx.log("info", `echo ${text}`, "echoer");
        return `${label}: ${text}`;
      },
    )
    .tool("fail", { description: "Fails" }, () => {
      throw new Error(`${label} failed`);
    })
    .tool("refuse", { description: "Answers a JSON-RPC error" }, () => {
      throw new McpError(ErrorCode.InternalError, `${label} refuses`);
    })
    .tool("wait", { description: "Waits until cancelled" }, async (_args, ctx) => {
      ctx.progress(0, 1, "waiting");
      await new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)));
      return "never";
    })
    .tool("delete_all", { description: "Dangerous" }, () => "deleted")
    .resource(`${label}://readme`, { name: "readme", mimeType: "text/plain" }, () => `${label} readme`)
    .resource("shared://same", { name: "same" }, () => `${label} shared`)
    .resourceTemplate(
      `${label}://items/{id}`,
      { name: "item" },
      (_uri, { id }) => `${label} item ${String(id)}`,
      { complete: { id: (typed) => ["1", "2", "10"].filter((id) => id.startsWith(typed)) } },
    )
    .prompt(
      "greet",
      { description: "Greets", arguments: { name: { required: true, complete: () => ["Ada", "Alan"] } } },
      ({ name }) => `${label} greets ${name}`,
    );
  const http = await server.serveHttp({ port: 0 });
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  return { server, http };
}

/**
 * The proxy, and an McpClient connected to it in memory: stateless (2026-07-28) unless
 * `protocolVersion` names a handshake-era revision.
 */
async function connect(
  options: ProxyOptions,
  protocolVersion?: ProtocolVersion,
): Promise<{ proxy: ProxyServer; client: McpClient }> {
  const proxy = await createProxyServer(options);
  cleanups.push(() => proxy.close());
  const [serverSide, clientSide] = createMemoryTransportPair();
  await proxy.connect(serverSide);
  const client = await McpClient.connect({ transport: clientSide, protocolVersion });
  cleanups.push(() => client.close());
  return { proxy, client };
}

describe("createProxyServer: a bridge", () => {
  it("forwards tools with their outcomes and log messages, and audits each call (2025-11-25)", async () => {
    const { http } = await upstream("up");
    const records: AuditRecord[] = [];
    const warnings: string[] = [];
    const { proxy, client } = await connect(
      {
        upstream: { url: http.url },
        deny: ["delete_*"],
        audit: (record) => {
          records.push(record);
        },
        onWarning: (message) => warnings.push(message),
      },
      "2025-11-25",
    );
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo).toMatchObject({ name: "up-server", version: "2.0.0" });
    expect(client.instructions).toBe("Ask up.");
    expect(proxy.servers).toEqual(["up-server"]);
    expect(proxy.hiddenTools()).toEqual({ "up-server": 1 });
    const names = (await client.listTools()).map((tool) => tool.name);
    expect(names).toEqual(["echo", "fail", "refuse", "wait"]);

    const logs: unknown[] = [];
    client.on("log", (entry) => logs.push(entry));
    expect((await client.callTool("echo", { text: "hi" })).text()).toBe("up: hi");
    await until(() => logs.length > 0, { what: "a log message to reach the client" });
    expect(logs[0]).toMatchObject({ level: "info", logger: "echoer", data: "echo hi" });

    const failed = await client.callTool("fail");
    expect(failed).toMatchObject({ isError: true, content: [{ type: "text", text: "up failed" }] });
    await expect(client.callTool("refuse")).rejects.toMatchObject({ code: ErrorCode.InternalError });
    await expect(client.callTool("delete_all")).rejects.toMatchObject({ code: ErrorCode.InvalidParams });

    const controller = new AbortController();
    const waiting = client.callTool(
      "wait",
      {},
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    await expect(waiting).rejects.toBeDefined();
    await until(() => records.length === 4, { what: "four audit records" });

    expect(records.map(({ tool, outcome }) => [tool, outcome])).toEqual([
      ["echo", "ok"],
      ["fail", "tool_error"],
      ["refuse", "error"],
      ["wait", "cancelled"],
    ]);
    expect(records[0]).toMatchObject({ server: "up-server", argsDigest: digestArguments({ text: "hi" }) });
    expect(warnings).toEqual([]);
  });

  it.each(["2025-11-25", "2026-07-28"] as const)(
    "passes a result's own _meta on, not the upstream's protocol keys (%s)",
    async (version) => {
      const server = new McpServer({ name: "traced-server", version: "1.0.0" }).tool(
        "traced",
        { description: "Answers with a trace id" },
        () => ({ content: [{ type: "text", text: "ok" }], _meta: { "example.com/trace": "t-1" } }),
      );
      const http = await server.serveHttp({ port: 0 });
      cleanups.push(
        () => http.close(),
        () => server.close(),
      );
      const { client } = await connect({ upstream: { url: http.url } }, version);
      const result = await client.callTool("traced");
      expect(result._meta?.["example.com/trace"]).toBe("t-1");
      const serverInfo = result._meta?.["io.modelcontextprotocol/serverInfo"];
      // A stateless client sees the proxy's own identity there; a handshake-era client, none.
      if (version === "2026-07-28") expect(serverInfo).toMatchObject({ name: "traced-server" });
      else expect(serverInfo).toBeUndefined();
    },
  );

  it("forwards resources, templates, prompts and completion", async () => {
    const { http } = await upstream("up");
    const { client } = await connect({ upstream: { url: http.url } });
    expect(client.capabilities).toMatchObject({ resources: {}, prompts: {}, completions: {} });
    const uris = (await client.listResources()).map((resource) => resource.uri);
    expect(uris).toEqual(["shared://same", "up://readme"]);
    expect((await client.readResource("up://readme")).contents).toEqual([
      { uri: "up://readme", mimeType: "text/plain", text: "up readme" },
    ]);
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual(["up://items/{id}"]);
    expect((await client.readResource("up://items/7")).contents[0]).toMatchObject({ text: "up item 7" });
    // -32002 in the handshake era, -32602 in 2026-07-28 (which this in-memory client speaks)
    await expect(client.readResource("nothing://here")).rejects.toThrow("Resource not found: nothing://here");
    const ids = await client.complete(
      { type: "ref/resource", uri: "up://items/{id}" },
      { name: "id", value: "1" },
    );
    expect(ids.values).toEqual(["1", "10"]);
    const prompts = await client.listPrompts();
    expect(prompts).toEqual([
      { name: "greet", description: "Greets", arguments: [{ name: "name", required: true }] },
    ]);
    const greeting = await client.getPrompt("greet", { name: "Ada" });
    expect(greeting.messages[0]?.content).toEqual({ type: "text", text: "up greets Ada" });
    await expect(client.getPrompt("greet")).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    const names = await client.complete({ type: "ref/prompt", name: "greet" }, { name: "name", value: "" });
    expect(names.values).toEqual(["Ada", "Alan"]);
  });

  it("follows the upstream's list changes and tells its clients", async () => {
    const { server, http } = await upstream("up");
    const { client } = await connect({ upstream: { url: http.url } });
    const changed = { tools: 0, resources: 0, prompts: 0 };
    client.on("toolsListChanged", () => changed.tools++);
    client.on("resourcesListChanged", () => changed.resources++);
    client.on("promptsListChanged", () => changed.prompts++);

    server.tool("added", { description: "New" }, () => "added here");
    await until(() => changed.tools > 0, { what: "tools/list_changed" });
    expect((await client.callTool("added")).text()).toBe("added here");
    server.removeTool("echo");
    await until(() => changed.tools > 1, { what: "a second tools/list_changed" });
    expect((await client.listTools()).map((tool) => tool.name)).not.toContain("echo");
    await expect(client.callTool("echo", { text: "x" })).rejects.toMatchObject({ code: -32602 });

    server.resource("up://new", { name: "new" }, () => "fresh");
    await until(() => changed.resources > 0, { what: "resources/list_changed" });
    expect((await client.readResource("up://new")).contents[0]).toMatchObject({ text: "fresh" });

    server.removePrompt("greet");
    await until(() => changed.prompts > 0, { what: "prompts/list_changed" });
    expect(await client.listPrompts()).toEqual([]);
  });

  it("rejects, leaving nothing running, when the upstream cannot be reached", async () => {
    await expect(createProxyServer({ upstream: { url: "http://127.0.0.1:1/mcp" } })).rejects.toThrow();
  });

  it("checks the upstream's entry before starting it", async () => {
    const error = await createProxyServer({
      upstream: { command: "mcpkit-no-such-command-xyz", arg: ["x"] } as never,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain('unknown key "arg" — did you mean "args"?');
    await expect(
      createProxyServer({ upstream: { url: "http://127.0.0.1:1/mcp", allowTools: "echo" } as never }),
    ).rejects.toThrow('"allowTools" must be an array of tool names, not a string');
  });
});

describe("createProxyServer: an aggregate", () => {
  it("serves the servers of a config as one: server__tool, server__prompt, allow and deny lists", async () => {
    const [a, b] = [await upstream("a"), await upstream("b")];
    const warnings: string[] = [];
    const { proxy, client } = await connect({
      config: {
        mcpServers: {
          alpha: { url: a.http.url, allowTools: ["echo", "fail", "delete_all"] },
          beta: { url: b.http.url, denyTools: ["wait", "refuse"] },
        },
      },
      deny: ["delete_*"],
      onWarning: (message) => warnings.push(message),
    });
    expect(client.serverInfo.name).toBe("mcpkit-proxy");
    expect(client.instructions).toContain("alpha: Ask a.");
    expect((await client.listTools()).map((tool) => tool.name)).toEqual([
      "alpha__echo",
      "alpha__fail",
      "beta__echo",
      "beta__fail",
    ]);
    expect(proxy.exposedTools()[0]).toEqual({ name: "alpha__echo", server: "alpha", tool: "echo" });
    expect(proxy.hiddenTools()).toEqual({ alpha: 3, beta: 3 });
    expect((await client.callTool("beta__echo", { text: "x" })).text()).toBe("b: x");
    await expect(client.callTool("beta__wait")).rejects.toMatchObject({ code: -32602 });
    expect((await client.listPrompts()).map((prompt) => prompt.name)).toEqual([
      "alpha__greet",
      "beta__greet",
    ]);
    expect((await client.getPrompt("beta__greet", { name: "Ada" })).messages[0]?.content).toMatchObject({
      text: "b greets Ada",
    });
    const completed = await client.complete(
      { type: "ref/prompt", name: "alpha__greet" },
      { name: "name", value: "" },
    );
    expect(completed.values).toEqual(["Ada", "Alan"]);
    // Resources keep their URIs; one offered by both goes to the first server, with a warning.
    expect((await client.readResource("b://readme")).contents[0]).toMatchObject({ text: "b readme" });
    expect((await client.readResource("shared://same")).contents[0]).toMatchObject({ text: "a shared" });
    expect(warnings).toEqual(["resource shared://same of beta left out: alpha offers it too"]);
  });

  it("leaves out a server that fails, and rejects only when every server fails", async () => {
    const a = await upstream("a");
    const { proxy, client } = await connect({
      config: { mcpServers: { alpha: { url: a.http.url }, gone: { url: "http://127.0.0.1:1/mcp" } } },
      reconnect: false,
    });
    expect(proxy.failures.map((failure) => failure.server)).toEqual(["gone"]);
    expect((await client.listTools()).every((tool) => tool.name.startsWith("alpha__"))).toBe(true);
    await expect(
      createProxyServer({
        config: { mcpServers: { gone: { url: "http://127.0.0.1:1/mcp" } } },
        reconnect: false,
      }),
    ).rejects.toThrow(/gone/);
  });

  it("expands ${VAR} per server: one whose variable is unset is left out, named with the file", async () => {
    const a = await upstream("a");
    const dir = await mkdtemp(join(tmpdir(), "mcpkit-proxy-vars-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, "mcp.json");
    const url = a.http.url.replace(/\/mcp$/, "");
    await writeFile(
      path,
      JSON.stringify({
        mcpServers: {
          alpha: { url: "${BASE}/mcp", allowTools: ["echo"] },
          secret: { url: "${BASE}/mcp", headers: { Authorization: "Bearer ${MCPKIT_TEST_NO_SUCH_TOKEN}" } },
        },
      }),
    );
    const { proxy, client } = await connect({ config: path, env: { BASE: url } });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(["alpha__echo"]);
    expect(proxy.failures).toHaveLength(1);
    const { server, error } = proxy.failures[0]!;
    expect(server).toBe("secret");
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(`${path}: server "secret": \${MCPKIT_TEST_NO_SUCH_TOKEN} is not set`);
    // An unknown key stops it before anything connects.
    await writeFile(
      path,
      JSON.stringify({ mcpServers: { alpha: { url: "${BASE}/mcp", denyTool: ["echo"] } } }),
    );
    await expect(createProxyServer({ config: path, env: { BASE: url } })).rejects.toThrow(
      'unknown key "denyTool" — did you mean "denyTools"?',
    );
  });

  it("checks the config before connecting anything", () => {
    const config = { mcpServers: { a: { url: "http://x/mcp" }, b: { command: "x", disabled: true } } };
    expect(checkProxyConfig(config).mcpServers).toEqual({ a: { url: "http://x/mcp" } });
    expect(Object.keys(checkProxyConfig(config, { servers: ["b"] }).mcpServers)).toEqual(["b"]);
    expect(() => checkProxyConfig(config, { servers: ["c"] })).toThrow('no server "c" in the config');
    expect(() => checkProxyConfig(config, { deny: ["c/tool"] })).toThrow('names server "c"');
    expect(() => checkProxyConfig({ mcpServers: { a: { url: "u", allowTools: "echo" } } } as never)).toThrow(
      '"allowTools" must be an array',
    );
    expect(() => checkProxyConfig({ mcpServers: { b: { command: "x", disabled: true } } })).toThrow(
      "no enabled server",
    );
  });
});

describe("allow and deny lists", () => {
  it("parses rules and matches * wildcards", () => {
    expect(parseToolRule("echo")).toEqual({ tool: "echo" });
    expect(parseToolRule("fs/write_*")).toEqual({ server: "fs", tool: "write_*" });
    expect(() => parseToolRule("/x")).toThrow(/server\/tool/);
    expect(() => parseToolRule("fs/")).toThrow(/server\/tool/);
    expect(matchesPattern("write_*", "write_file")).toBe(true);
    expect(matchesPattern("write_*", "rewrite_file")).toBe(false);
    expect(matchesPattern("a.b", "aXb")).toBe(false);
    expect(matchesPattern("*", "anything")).toBe(true);
  });

  it("an allow list restricts only the servers it names; deny wins", () => {
    const policy = new ToolPolicy(
      { fs: { allowTools: ["read_*", "write_file"] }, calc: { denyTools: ["evaluate"] } },
      { allow: ["web/fetch"], deny: ["fs/write_file", "drop"] },
    );
    expect(policy.allows("fs", "read_file")).toBe(true);
    expect(policy.allows("fs", "write_file")).toBe(false);
    expect(policy.allows("fs", "list")).toBe(false);
    expect(policy.allows("calc", "evaluate")).toBe(false);
    expect(policy.allows("calc", "add")).toBe(true);
    expect(policy.allows("web", "fetch")).toBe(true);
    expect(policy.allows("web", "post")).toBe(false);
    expect(policy.allows("other", "drop")).toBe(false);
    expect(policy.serversNamed.sort()).toEqual(["fs", "web"]);
    // An allow rule without a server restricts every server.
    const everywhere = new ToolPolicy({}, { allow: ["search"] });
    expect(everywhere.allows("a", "search")).toBe(true);
    expect(everywhere.allows("b", "other")).toBe(false);
  });
});

describe("the audit log", () => {
  it("canonical JSON: sorted keys, no whitespace, whatever the order", () => {
    expect(canonicalJson({ b: 1, a: [true, null, { d: "x", c: 2.5 }], u: undefined })).toBe(
      '{"a":[true,null,{"c":2.5,"d":"x"}],"b":1}',
    );
    expect(digestArguments({ b: 1, a: 2 })).toBe(digestArguments({ a: 2, b: 1 }));
    expect(digestArguments({ a: 2, b: 1 })).toBe(createHash("sha256").update('{"a":2,"b":1}').digest("hex"));
    expect(digestArguments(undefined)).toBe(digestArguments({}));
  });

  it("appends one JSON line per record, in order, to a file it creates", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcpkit-audit-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, "audit.jsonl");
    const record = (tool: string): AuditRecord => ({
      time: new Date(0).toISOString(),
      server: "s",
      tool,
      argsDigest: digestArguments({}),
      outcome: "ok",
      durationMs: 1,
    });
    const first = await AuditLog.open(path);
    await Promise.all([first.write(record("one")), first.write(record("two"))]);
    await first.close();
    const second = await AuditLog.open(path);
    await second.sink(record("three"));
    await second.close();
    await expect(second.write(record("four"))).rejects.toThrow(/closed/);
    const lines = (await readFile(path, "utf8")).trimEnd().split("\n");
    expect(lines.map((line) => JSON.parse(line).tool)).toEqual(["one", "two", "three"]);
    await expect(AuditLog.open(join(dir, "missing", "audit.jsonl"))).rejects.toThrow(/ENOENT/);
  });
});
