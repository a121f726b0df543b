// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text with ${VAR} references
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  ConfigError,
  MultiServerClient,
  MultiServerConnectError,
  type SkippedServer,
  type StdioServerConfig,
  ToolNameConflictError,
} from "../../src/client/index.js";
import { createCalculatorServer } from "../../src/servers/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/multi-search-server.js", import.meta.url));
const FILESYSTEM = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url),
);
/** The fixture's 100-character tool name. */
const LONG_TOOL_NAME = `find_${"documents_matching_".repeat(5)}`.padEnd(100, "x");
const VALID_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const search = (label: string): StdioServerConfig => ({ command: process.execPath, args: [FIXTURE, label] });

let clients: MultiServerClient[] = [];
let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await Promise.all(cleanups.map((cleanup) => cleanup()));
  clients = [];
  cleanups = [];
});

async function connect(...args: Parameters<typeof MultiServerClient.connect>): Promise<MultiServerClient> {
  const client = await MultiServerClient.connect(...args);
  clients.push(client);
  return client;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mcpkit-multi-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe("MultiServerClient: names and routing", () => {
  it("exposes two servers' `search` under distinct names, each call reaching its own server", async () => {
    const mcp = await connect({ mcpServers: { alpha: search("alpha"), beta: search("beta") } });
    expect(mcp.failures).toEqual([]);
    const tools = mcp.tools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain("alpha__search");
    expect(names).toContain("beta__search");
    expect(names).not.toContain("search");
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(VALID_NAME);
    const byName = (name: string) => tools.find((tool) => tool.name === name)!;
    expect((await byName("alpha__search").invoke({ query: "q" })).text).toBe("alpha: results for q");
    expect((await byName("beta__search").invoke({ query: "q" })).text).toBe("beta: results for q");
    expect(byName("beta__search").server).toBe("beta");
  });

  it("gives a 100-character tool name a valid, stable, shortened name that routes correctly", async () => {
    const mcp = await connect({ alpha: search("alpha"), beta: search("beta") });
    expect(LONG_TOOL_NAME).toHaveLength(100);
    const long = mcp.tools({ include: [LONG_TOOL_NAME] });
    expect(long).toHaveLength(2);
    for (const tool of long) {
      expect(tool.name).toMatch(VALID_NAME);
      expect(tool.name).toHaveLength(64);
      expect(tool.definition.name).toBe(LONG_TOOL_NAME);
    }
    expect(long[0]!.name).not.toBe(long[1]!.name);
    expect(mcp.tools({ include: [LONG_TOOL_NAME] }).map((tool) => tool.name)).toEqual(
      long.map((t) => t.name),
    );
    expect((await long[0]!.invoke({})).text).toBe("alpha: long tool reached");
    expect((await long[1]!.invoke({})).text).toBe("beta: long tool reached");
    // Alone in a subset, it needs no prefix, and is still cut to 64 characters.
    const [only] = mcp.tools({ servers: ["beta"], include: [LONG_TOOL_NAME] });
    expect(only!.name).toMatch(/^find_documents_matching_.*_[0-9a-f]{8}$/);
    expect((await only!.invoke({})).text).toBe("beta: long tool reached");
  });

  it("applies the collision policy, server subsets and include/exclude filters", async () => {
    const mcp = await connect(
      { alpha: search("alpha"), beta: search("beta") },
      { collisions: "prefix-always" },
    );
    expect(mcp.tools().every((tool) => /^(alpha|beta)__/.test(tool.name))).toBe(true);
    const subset = mcp.tools({
      servers: ["alpha"],
      include: [/^search$/, "whoami"],
      exclude: ["alpha/whoami"],
    });
    expect(subset.map((tool) => tool.name)).toEqual(["alpha__search"]);
    expect(() => mcp.tools({ servers: ["gamma"] })).toThrow(/No server named "gamma"/);
    // asTools() lists again and gives the same, asynchronously, as McpClient.asTools() does.
    const listed = await mcp.asTools({ servers: ["alpha"], include: [/^search$/] });
    expect(listed.map((tool) => tool.name)).toEqual(["alpha__search"]);
    await expect(mcp.asTools({ servers: ["gamma"] })).rejects.toThrow(/No server named "gamma"/);

    const onConflict = await connect({ alpha: search("alpha"), beta: search("beta") });
    expect(onConflict.tools({ servers: ["alpha"] }).map((tool) => tool.name)).toContain("search");
    const strict = await connect({ alpha: search("alpha"), beta: search("beta") }, { collisions: "error" });
    expect(() => strict.tools()).toThrow(ToolNameConflictError);
    expect(strict.tools({ servers: ["beta"] }).length).toBeGreaterThan(0);
  });

  it("uses the server's timeout, then per-tool timeouts, then the caller's", async () => {
    const mcp = await connect(
      { alpha: { ...search("alpha"), timeout: 150 }, beta: search("beta") },
      { tools: { "beta/slow": { timeout: 150 } }, resetTimeoutOnProgress: false },
    );
    const slow = (server: string) => mcp.tools({ servers: [server], include: ["slow"] })[0]!;
    const args = { steps: 3, delay: 100 };
    await expect(slow("alpha").invoke(args)).rejects.toMatchObject({ code: -32001 });
    await expect(slow("beta").invoke(args)).rejects.toMatchObject({ code: -32001 });
    expect((await slow("beta").invoke(args, { timeout: 5000 })).text).toBe("beta: done after 3 steps");
  });
});

describe("MultiServerClient: configs and failures", () => {
  it("runs server-filesystem over stdio and our calculator over Streamable HTTP together", async () => {
    const dir = await tempDir();
    await Promise.all(["a.txt", "b.txt", "c.txt"].map((name) => writeFile(join(dir, name), name)));
    const http: HttpServerHandle = await createCalculatorServer().serveHttp();
    cleanups.push(() => http.close());
    const mcp = await connect({
      mcpServers: {
        fs: { command: process.execPath, args: [FILESYSTEM, dir] },
        math: { url: http.url, transport: "streamable-http" },
      },
    });
    expect(mcp.health()).toMatchObject({
      fs: { state: "connected", transport: "stdio" },
      math: { state: "connected", transport: "http", tools: 1 },
    });
    const tools = mcp.tools();
    const list = tools.find((tool) => tool.name === "list_directory")!;
    const listing = (await list.invoke({ path: dir })).text;
    const count = listing.split("\n").filter((line) => line.startsWith("[FILE]")).length;
    expect(count).toBe(3);
    const calculator = tools.find((tool) => tool.name === "calculator")!;
    expect((await calculator.invoke({ expression: `${count} * 7` })).text).toBe("3 * 7 = 21");
    expect(mcp.client("math").serverInfo.name).toBe("mcpkit-calculator");
  });

  it("reports a failing server and skips it, or rejects with failOnError", async () => {
    const servers = {
      alpha: search("alpha"),
      missing: { command: join(tmpdir(), "no-such-mcp-server") },
      silent: { command: process.execPath, args: ["-e", "setTimeout(() => {}, 60000)"] },
    };
    const skipped: SkippedServer[] = [];
    const mcp = await connect(servers, {
      connectTimeout: 3000,
      on: { serverSkipped: (event) => skipped.push(event) },
    });
    expect(mcp.failures.map((failure) => failure.server).sort()).toEqual(["missing", "silent"]);
    // Each failure was announced as it happened, with the same error as in `failures`.
    expect(skipped.map((event) => event.server).sort()).toEqual(["missing", "silent"]);
    for (const event of skipped) {
      expect(event.reason).toBe("failed");
      const failure = mcp.failures.find((f) => f.server === event.server)!;
      expect(event.reason === "failed" && event.error).toBe(failure.error);
    }
    expect(mcp.failures.find((f) => f.server === "missing")!.error.message).toMatch(/Could not start/);
    expect(mcp.health()).toMatchObject({ alpha: { state: "connected" }, silent: { state: "failed" } });
    expect(mcp.health().silent!.lastError!.message).toMatch(/3000 ms/);
    expect(mcp.tools().every((tool) => tool.server === "alpha")).toBe(true);
    expect(() => mcp.client("missing")).toThrow(/not connected/);

    const announced: string[] = [];
    const error = await MultiServerClient.connect(servers, {
      connectTimeout: 3000,
      failOnError: true,
      on: { serverSkipped: ({ server }) => announced.push(server) },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MultiServerConnectError);
    expect((error as MultiServerConnectError).failures).toHaveLength(2);
    expect(announced.sort()).toEqual(["missing", "silent"]);
  });

  it(`reads a config file, expanding \${VAR} per server: an unset one fails that server alone`, async () => {
    const dir = await tempDir();
    const path = join(dir, "mcp.json");
    await writeFile(
      path,
      `{
        "mcpServers": {
          "docs": { "command": "\${NODE_BIN}", "args": ["\${FIXTURE}", "\${LABEL:-unset}"] },
          "github": { "command": "\${NODE_BIN}", "args": ["\${FIXTURE}", "gh"], "env": { "TOKEN": "\${GITHUB_TOKEN}" } },
          "off": { "command": "\${NODE_BIN}", "args": ["\${FIXTURE}", "off"], "disabled": true }
        }
      }`,
    );
    const env = { NODE_BIN: process.execPath, FIXTURE, LABEL: "from-env" };
    const skipped: SkippedServer[] = [];
    const mcp = await MultiServerClient.fromConfigFile(path, {
      env,
      on: { serverSkipped: (event) => skipped.push(event) },
    });
    clients.push(mcp);
    expect(mcp.servers).toEqual(["docs", "github"]);
    const [tool] = mcp.tools({ include: ["search"] });
    expect(tool!.server).toBe("docs");
    expect((await tool!.invoke({ query: "x" })).text).toBe("from-env: results for x");

    expect(mcp.failures).toHaveLength(1);
    const { server, error } = mcp.failures[0]!;
    expect(server).toBe("github");
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      file: path,
      server: "github",
      path: ["mcpServers", "github", "env", "TOKEN"],
    });
    expect(error.message).toBe(
      `${path}: server "github": \${GITHUB_TOKEN} is not set; set it, or write \${GITHUB_TOKEN:-default} (at mcpServers.github.env.TOKEN)`,
    );
    expect(mcp.health().github).toMatchObject({ state: "failed", lastError: error });
    expect(skipped).toEqual([
      { server: "off", reason: "disabled" },
      { server: "github", reason: "failed", error },
    ]);
    await expect(mcp.reconnect("github")).rejects.toBeInstanceOf(ConfigError);
  });

  it("checks the file before starting anything: unknown keys, types, JSON syntax", async () => {
    const dir = await tempDir();
    const path = join(dir, "mcp.json");
    await writeFile(
      path,
      JSON.stringify({ mcpServers: { calc: { command: process.execPath, arg: [FIXTURE] } } }),
    );
    await expect(MultiServerClient.fromConfigFile(path)).rejects.toThrow(
      `${path}: server "calc": unknown key "arg" — did you mean "args"? (at mcpServers.calc.arg)`,
    );
    await writeFile(
      path,
      JSON.stringify({ mcpServers: { calc: { command: process.execPath, timeout: "30s" } } }),
    );
    await expect(MultiServerClient.fromConfigFile(path)).rejects.toThrow(
      '"timeout" must be a number of milliseconds greater than 0, not a string',
    );
    await writeFile(path, '{\n  "mcpServers": {\n    "calc": { "command": "node" }\n  },\n}\n');
    const error = (await MultiServerClient.fromConfigFile(path).catch((e: unknown) => e)) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect([error.line, error.column]).toEqual([5, 1]);
    expect(error.message).toMatch(/mcp\.json:5:1: invalid JSON: /);
    // A config given in code is checked the same way.
    await expect(connect({ calc: { command: process.execPath, denyTools: ["x"] } as never })).rejects.toThrow(
      '"denyTools" is read by the proxy',
    );
  });
});
