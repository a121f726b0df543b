/** Config files and objects: every mistake is a `ConfigError` saying where it is and what would be right. */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are config text with ${VAR} references
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ConfigError,
  expandVariables,
  loadConfigFile,
  parseConfig,
  type ServerConfig,
} from "../../src/client/index.js";
import { didYouMean } from "../../src/client/multi/config-check.js";
import { parseConfigJson, syntaxErrorIndex } from "../../src/client/multi/config-json.js";
import { checkProxyConfig, loadProxyConfig } from "../../src/proxy/index.js";
import { editDistance } from "../../src/util/edit-distance.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpkit-config-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

/** The `ConfigError` `run` throws. */
function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

const servers = (entries: Record<string, unknown>) => ({ mcpServers: entries });

describe("unknown keys", () => {
  it.each([
    [{ fs: { command: "x", arg: ["a"] } }, "arg", "args"],
    [{ fs: { command: "x", Args: ["a"] } }, "Args", "args"],
    [{ fs: { command: "x", enviroment: {} } }, "enviroment", "env"],
    [{ fs: { command: "x", environment: {} } }, "environment", "env"],
    [{ fs: { cmd: "x" } }, "cmd", "command"],
    [{ web: { url: "http://h/mcp", header: {} } }, "header", "headers"],
    [{ web: { url: "http://h/mcp", transpot: "sse" } }, "transpot", "transport"],
    [{ web: { serverUrl: "http://h/mcp" } }, "serverUrl", "url"],
    [{ fs: { command: "x", timout: 5 } }, "timout", "timeout"],
    [{ fs: { command: "x", colour: "red" } }, "colour", undefined],
  ])("%j: %s, did you mean %s", (entries, key, suggestion) => {
    const error = configError(() => parseConfig(servers(entries), "mcp.json"));
    const server = Object.keys(entries)[0]!;
    expect(error.file).toBe("mcp.json");
    expect(error.server).toBe(server);
    expect(error.path).toEqual(["mcpServers", server, key]);
    expect(error.suggestion).toBe(suggestion);
    const hint = suggestion ? ` — did you mean "${suggestion}"?` : "";
    expect(error.message).toBe(
      `mcp.json: server "${server}": unknown key "${key}"${hint} (at mcpServers.${server}.${key})`,
    );
  });

  it("in a proxy config: allowedTools and denyTool, with the file and the server", () => {
    const config = servers({ fs: { command: "x", allowedTools: ["read_file"] } });
    expect(() => checkProxyConfig(config as never, {}, "proxy.json")).toThrow(
      'proxy.json: server "fs": unknown key "allowedTools" — did you mean "allowTools"? (at mcpServers.fs.allowedTools)',
    );
    const deny = servers({ fs: { command: "x", denyTool: ["write_file"] } });
    expect(() => checkProxyConfig(deny as never)).toThrow(
      'server "fs": unknown key "denyTool" — did you mean "denyTools"?',
    );
  });

  it("names the proxy's keys, and the other transport's, instead of calling them unknown", () => {
    expect(() => parseConfig(servers({ fs: { command: "x", allowTools: ["a"] } }))).toThrow(
      '"allowTools" is read by the proxy',
    );
    expect(() => parseConfig(servers({ fs: { command: "x", headers: {} } }))).toThrow(
      '"headers" is for an HTTP server (one with a "url"), and this one has a "command"',
    );
    expect(() => parseConfig(servers({ web: { url: "http://h", args: [] } }))).toThrow(
      '"args" is for a stdio server',
    );
  });

  it("a server name that is not an identifier is quoted in the path", () => {
    const error = configError(() => parseConfig(servers({ "my server": { command: "x", arg: [] } })));
    expect(error.message).toContain('(at mcpServers["my server"].arg)');
  });

  it("other top-level keys are left alone, unless mcpServers is missing and one looks like it", () => {
    expect(() => parseConfig({ globalShortcut: "Ctrl+Space", mcpServers: {} })).not.toThrow();
    expect(() => parseConfig({ mcpservers: {} }, "mcp.json")).toThrow(
      'mcp.json: unknown key "mcpservers" — did you mean "mcpServers"? (at mcpservers)',
    );
    expect(() => parseConfig({ servers: [] })).toThrow('unknown key "servers" — did you mean "mcpServers"?');
    expect(() => parseConfig({ other: {} })).toThrow('the config needs an "mcpServers" object');
  });

  it("accepts every documented key, and Claude Code's type", () => {
    const config = servers({
      fs: {
        command: "npx",
        args: ["-y", "x"],
        env: { A: "b" },
        cwd: ".",
        timeout: 5000,
        disabled: false,
        type: "stdio",
      },
      web: { url: "http://h/mcp", headers: { A: "b" }, transport: "sse", timeout: 1 },
      claude: { type: "http", url: "http://h/mcp" },
      built: { command: "x", args: undefined },
    });
    expect(parseConfig(config)).toBe(config);
  });
});

describe("wrong types and shapes", () => {
  it.each([
    [{ command: "x", args: "--verbose" }, '"args" must be an array of strings, not a string', ["args"]],
    [{ command: "x", args: ["a", 2] }, 'item 1 of "args" must be a string, not a number', ["args", 1]],
    [
      { command: "x", env: { PORT: 3000 } },
      '"PORT" in "env" must be a string, not a number',
      ["env", "PORT"],
    ],
    [
      { command: "x", env: ["A=b"] },
      '"env" must be an object whose values are strings, not an array',
      ["env"],
    ],
    [
      { command: "x", timeout: "5s" },
      '"timeout" must be a number of milliseconds greater than 0, not a string',
      ["timeout"],
    ],
    [
      { command: "x", timeout: -1 },
      '"timeout" must be a number of milliseconds greater than 0, not -1',
      ["timeout"],
    ],
    [{ command: "x", disabled: "yes" }, '"disabled" must be true or false, not a string', ["disabled"]],
    [{ command: "" }, '"command" must be a non-empty string, not an empty string', ["command"]],
    [{ command: ["npx", "x"] }, '"command" must be a non-empty string, not an array', ["command"]],
    [
      { url: "http://h", headers: { A: 1 } },
      '"A" in "headers" must be a string, not a number',
      ["headers", "A"],
    ],
  ])("%j: %s", (entry, message, path) => {
    const error = configError(() => parseConfig(servers({ s: entry }), "mcp.json"));
    expect(error.message).toContain(`mcp.json: server "s": ${message}`);
    expect(error.path).toEqual(["mcpServers", "s", ...path]);
  });

  it("a choice names its values, and the one probably meant", () => {
    const error = configError(() =>
      parseConfig(servers({ s: { url: "http://h", transport: "streamable_http" } })),
    );
    expect(error.message).toBe(
      'server "s": "transport" must be one of "streamable-http", "http", "sse", not "streamable_http" — did you mean "streamable-http"? (at mcpServers.s.transport)',
    );
  });

  it("an entry needs exactly one of command and url, and must be an object", () => {
    expect(() => parseConfig(servers({ s: { args: [] } }))).toThrow(
      'server "s": needs a "command" (to start a stdio server) or a "url" (of an HTTP server)',
    );
    expect(() => parseConfig(servers({ s: { command: "x", url: "http://h" } }))).toThrow(
      'has both a "command"',
    );
    expect(() => parseConfig(servers({ s: "npx x" }))).toThrow(
      'server "s": must be an object with a "command" or a "url", not a string',
    );
    expect(() => parseConfig({ mcpServers: [] })).toThrow(
      '"mcpServers" must be an object of servers by name, not an array',
    );
    expect(() => parseConfig(null)).toThrow('the config must be an object with "mcpServers", not null');
  });

  it("in a proxy config, the tool lists are arrays of tool names", () => {
    const config = servers({ calc: { command: "x", denyTools: "calculator" } });
    expect(() => checkProxyConfig(config as never)).toThrow(
      'server "calc": "denyTools" must be an array of tool names, not a string (at mcpServers.calc.denyTools)',
    );
  });
});

describe("JSON syntax errors", () => {
  it.each([
    ['{\n  "mcpServers": {\n    "fs": { "command": "x", }\n  }\n}', 3, 29],
    ['{\n  "mcpServers": {\n    "fs": { "command": "x" }\n  }', 4, 4],
    ['{ "mcpServers": { "fs": { "command": } } }', 1, 38],
    ['{ "mcpServers": { "fs": { "args": [1,] } } }', 1, 38],
    ['{ "mcpServers": {}\n  "other": 1 }', 2, 3],
    ['{ "mcpServers": {} } x', 1, 22],
    ["", 1, 1],
    ["{ 'mcpServers': {} }", 1, 3],
  ])("%j: line %i, column %i", async (text, line, column) => {
    const path = await file("broken.json", text);
    const error = (await loadConfigFile(path).catch((e: unknown) => e)) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.file).toBe(path);
    expect([error.line, error.column]).toEqual([line, column]);
    expect(error.message).toMatch(
      new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${line}:${column}: invalid JSON: \\S`),
    );
    expect(error.message).not.toMatch(/position|is not valid JSON/);
  });

  it("finds the position itself where JSON.parse names none, and agrees with it where it does", () => {
    const texts = [
      '{"a": }',
      "[1,]",
      '{"a": 1',
      '{"a" 1}',
      '{"a": "x\ny"}',
      "[tru]",
      "[nul,",
      '{"a": -}',
      "[1.]",
      "[1e+]",
      "[01]",
      '["\\u12"]',
      '"\\x"',
      "{} {}",
      '{"a":1,}',
      "{,}",
    ];
    for (const text of texts) {
      const message = (() => {
        try {
          JSON.parse(text);
        } catch (error) {
          return (error as Error).message;
        }
        throw new Error(`${text} parsed`);
      })();
      const reported = /at position (\d+)/.exec(message);
      if (reported) expect(syntaxErrorIndex(text), text).toBe(Number(reported[1]));
      else expect(syntaxErrorIndex(text), text).toBeGreaterThanOrEqual(0);
    }
    // Where Node 20 names no position: at the token it complains about.
    expect(['{"a": }', "[1,]", "[tru]", "[nul,"].map(syntaxErrorIndex)).toEqual([6, 3, 4, 4]);
    expect(syntaxErrorIndex('{"a": [1, {"b": null}], "c": "\\u00e9"}')).toBe(-1);
    expect(syntaxErrorIndex("[".repeat(100_000))).toBe(100_000);
  });

  it("reads a file that starts with a byte-order mark", () => {
    expect(parseConfigJson('\ufeff{"mcpServers": {}}')).toEqual({ mcpServers: {} });
  });
});

describe("${VAR} per server", () => {
  const env = { TOKEN: "secret", EMPTY: "" };

  it("expands ${VAR} and ${VAR:-default}; a missing one names the server, the file and the key", async () => {
    const path = await file(
      "vars.json",
      JSON.stringify(
        servers({
          ok: { url: "https://h/mcp", headers: { Authorization: "Bearer ${TOKEN}", X: "${NOPE:-fallback}" } },
          broken: { command: "x", env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" } },
        }),
      ),
    );
    const error = (await loadConfigFile(path, env).catch((e: unknown) => e)) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(
      `${path}: server "broken": \${GITHUB_TOKEN} is not set; set it, or write \${GITHUB_TOKEN:-default} (at mcpServers.broken.env.GITHUB_TOKEN)`,
    );
    expect([error.file, error.server]).toEqual([path, "broken"]);
    const config = await loadConfigFile(path, { ...env, GITHUB_TOKEN: "t" });
    expect(config.mcpServers.ok).toEqual({
      url: "https://h/mcp",
      headers: { Authorization: "Bearer secret", X: "fallback" },
    });
  });

  it("an empty variable needs a default; a malformed reference is an error, not text", () => {
    expect(expandVariables("${EMPTY:-d}", env)).toBe("d");
    expect(expandVariables("${EMPTY:-}", env)).toBe("");
    expect(() => expandVariables("${EMPTY}", env)).toThrow("${EMPTY} is empty");
    expect(() => expandVariables("a ${TOKEN:default} b", env)).toThrow(
      '"${TOKEN:default}" is not a variable: write ${NAME} or ${NAME:-default}',
    );
    expect(() => expandVariables("${TOKEN", env)).toThrow('"${TOKEN" is not a variable');
    expect(expandVariables({ list: ["$HOME", "${TOKEN}x"], n: 1 }, env)).toEqual({
      list: ["$HOME", "secretx"],
      n: 1,
    });
  });

  it("leaves disabled servers as written, and resolves a relative cwd after expanding it", async () => {
    const path = await file(
      "cwd.json",
      JSON.stringify(
        servers({
          here: { command: "x", cwd: "${SUB:-sub}" },
          off: { command: "x", args: ["${UNSET}"], disabled: true },
        }),
      ),
    );
    const config = await loadConfigFile(path, {});
    expect((config.mcpServers.here as { cwd: string }).cwd).toBe(join(dir, "sub"));
    expect((config.mcpServers.off as ServerConfig & { args: string[] }).args).toEqual(["${UNSET}"]);
    const absolute = await loadConfigFile(path, { SUB: "/srv/app" });
    expect((absolute.mcpServers.here as { cwd: string }).cwd).toBe("/srv/app");
  });

  it("loadProxyConfig keeps the tool lists and checks the same way", async () => {
    const path = await file(
      "proxy.json",
      JSON.stringify(servers({ fs: { command: "${BIN}", allowTools: ["read_*"] } })),
    );
    expect((await loadProxyConfig(path, { BIN: "node" })).mcpServers.fs).toEqual({
      command: "node",
      allowTools: ["read_*"],
    });
  });
});

describe("did you mean", () => {
  it("is bounded: close words only, within a third of their length", () => {
    expect(editDistance("allowedTools", "allowTools", 3)).toBe(2);
    expect(editDistance("agrs", "args", 3)).toBe(1);
    expect(editDistance("abcdefgh", "zzzzzzzz", 3)).toBe(Number.POSITIVE_INFINITY);
    expect(didYouMean("agrs", ["args", "env"])).toBe("args");
    expect(didYouMean("e", ["env"])).toBeUndefined();
    expect(didYouMean("x".repeat(10_000), ["args"])).toBeUndefined();
  });
});
