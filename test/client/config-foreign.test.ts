/**
 * Config files written by other hosts (Cline, Roo Code, VS Code) are read as they are: the keys those
 * hosts add are ignored with a warning, VS Code's `servers` map is read, and every mistake of a file
 * is reported at once.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are config text with ${…} references
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ConfigError,
  type ConfigWarning,
  loadConfigFile,
  MultiServerClient,
  parseConfig,
} from "../../src/client/index.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/multi-search-server.js", import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpkit-foreign-config-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, value: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(value, null, 2));
  return path;
}

// As Cline and Roo Code write their cline_mcp_settings.json / mcp_settings.json.
const CLINE = {
  mcpServers: {
    search: {
      command: process.execPath,
      args: [FIXTURE, "cline"],
      alwaysAllow: ["search"],
      autoApprove: [],
      disabled: false,
    },
    off: { command: "no-such-command", disabled: true, alwaysAllow: [] },
  },
};

describe("a Cline or Roo Code config", () => {
  it("is read, each foreign key named in a warning, and its servers connect", async () => {
    const path = await file("cline_mcp_settings.json", CLINE);
    const warnings: { server: string; message: string }[] = [];
    const skipped: string[] = [];
    const mcp = await MultiServerClient.fromConfigFile(path, {
      on: {
        warning: (warning) => warnings.push(warning),
        serverSkipped: ({ server }) => skipped.push(server),
      },
    });
    try {
      expect(mcp.servers).toEqual(["search"]);
      expect(skipped).toEqual(["off"]);
      expect(mcp.tools().map((tool) => tool.name)).toContain("search");
    } finally {
      await mcp.close();
    }
    expect(warnings.map(({ server }) => server)).toEqual(["search", "search", "off"]);
    expect(warnings[0]!.message).toBe(
      `${path}: server "search": "alwaysAllow" is Cline's and Roo Code's list of tools run without asking; mcpkit does not ask, so it is ignored`,
    );
  });

  it("gives each warning's place to onWarning", () => {
    const warnings: ConfigWarning[] = [];
    parseConfig(CLINE, "mcp.json", undefined, (warning) => warnings.push(warning));
    expect(warnings.map(({ path }) => path)).toEqual([
      ["mcpServers", "search", "alwaysAllow"],
      ["mcpServers", "search", "autoApprove"],
      ["mcpServers", "off", "alwaysAllow"],
    ]);
  });
});

describe("a VS Code .vscode/mcp.json", () => {
  const vscode = (env: Record<string, string>) => ({
    inputs: [{ type: "promptString", id: "api-key", description: "API key", password: true }],
    servers: {
      search: { type: "stdio", command: process.execPath, args: [FIXTURE, "vscode"], env, envFile: ".env" },
      remote: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { "X-Team": "a" } },
    },
  });

  it("reads its servers map as mcpServers, with envFile ignored and named", async () => {
    const path = await file("mcp.json", vscode({ MODE: "${MODE:-test}" }));
    const warnings: ConfigWarning[] = [];
    const config = parseConfig(JSON.parse(JSON.stringify(vscode({}))), path, undefined, (w) =>
      warnings.push(w),
    );
    expect(Object.keys(config.mcpServers)).toEqual(["search", "remote"]);
    expect(warnings.map(({ message }) => message)).toEqual([
      `${path}: server "search": "envFile" is VS Code's file of environment variables, not read here: put them in "env"`,
    ]);
    const loaded = await loadConfigFile(path, {}, undefined, () => {});
    expect(loaded.mcpServers.search).toMatchObject({ env: { MODE: "test" } });
  });

  it("says that an ${input:…} is not prompted for, and what to write instead", async () => {
    const path = await file("inputs.json", vscode({ API_KEY: "${input:api-key}" }));
    await expect(loadConfigFile(path, {}, undefined, () => {})).rejects.toThrow(
      '"${input:api-key}" is a VS Code input, which mcpkit does not prompt for: set an environment variable and write ${NAME}',
    );
  });
});

describe("a config with several mistakes", () => {
  it("reports every one of them at once", () => {
    const config = {
      mcpServers: {
        fs: { command: "npx", arg: ["-y"], timeout: "5s" },
        web: { url: "http://h/mcp", transport: "websocket" },
        empty: {},
      },
    };
    let error: unknown;
    try {
      parseConfig(config, "mcp.json");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    expect(problems.map(({ server, path }) => [server, path.at(-1)])).toEqual([
      ["fs", "arg"],
      ["fs", "timeout"],
      ["web", "transport"],
      ["empty", "empty"],
    ]);
    expect(message.split("\n")).toEqual([
      "mcp.json: 4 problems:",
      '  - mcp.json: server "fs": unknown key "arg" — did you mean "args"? (at mcpServers.fs.arg)',
      '  - mcp.json: server "fs": "timeout" must be a number of milliseconds greater than 0, not a string (at mcpServers.fs.timeout)',
      '  - mcp.json: server "web": "transport" must be one of "streamable-http", "http", "sse", not "websocket" (at mcpServers.web.transport)',
      '  - mcp.json: server "empty": needs a "command" (to start a stdio server) or a "url" (of an HTTP server) (at mcpServers.empty)',
    ]);
  });
});
