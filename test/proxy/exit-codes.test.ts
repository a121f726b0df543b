/**
 * `mcpkit proxy` on bad command lines: 2 for usage errors (before anything starts), 3 when the
 * upstream cannot be started or reached; and over stdio it exits 0 when its client goes away.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCalculatorServer } from "../../src/servers/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import { mcpkit, SLOW } from "../cli/run.js";
import { INITIALIZED, initializeRequest } from "../helpers/initialize.js";
import { until } from "../helpers/until.js";
import { allGone, CLI, childrenOf, ROOT } from "./helpers.js";

let dir: string;
let config: string;
let badLists: string;
let unreachable: string;
let typo: string;
let brokenJson: string;
let partial: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpkit-proxy-exit-"));
  config = join(dir, "mcp.json");
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: { calc: { command: process.execPath, args: [CLI, "serve", "calculator"] } },
    }),
  );
  badLists = join(dir, "bad-lists.json");
  await writeFile(
    badLists,
    JSON.stringify({ mcpServers: { calc: { command: "x", denyTools: "calculator" } } }),
  );
  typo = join(dir, "typo.json");
  await writeFile(
    typo,
    JSON.stringify({ mcpServers: { calc: { command: "x", allowedTools: ["calculator"] } } }),
  );
  brokenJson = join(dir, "broken.json");
  await writeFile(brokenJson, '{\n  "mcpServers": {\n    "calc": { "command": "x" },\n  }\n}\n');
  partial = join(dir, "partial.json");
  await writeFile(
    partial,
    JSON.stringify({
      mcpServers: {
        calc: { command: process.execPath, args: [CLI, "serve", "calculator"] },
        github: { command: process.execPath, env: { TOKEN: "$" + "{MCPKIT_TEST_NO_SUCH_TOKEN}" } },
        old: { command: "x", disabled: true },
      },
    }),
  );
  unreachable = join(dir, "unreachable.json");
  await writeFile(
    unreachable,
    JSON.stringify({ mcpServers: { nothing: { command: "mcpkit-no-such-command-xyz" } } }),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("mcpkit proxy exit codes", SLOW, () => {
  it.each([
    [["proxy"], /give the upstream once/],
    [["proxy", "--http"], /give the upstream once/],
    [["proxy", "http://127.0.0.1:1/mcp", "--", "node"], /give the upstream once/],
    [["proxy", "--config", "CONFIG", "--", "node"], /give the upstream once/],
    [["proxy", "not-a-url"], /"not-a-url" is not a URL/],
    [["proxy", "http://a/mcp", "http://b/mcp"], /give the upstream once|one URL only/],
    [["proxy", "--http", "--stdio", "--", "node"], /--http and --stdio exclude each other/],
    [["proxy", "--stdio", "--port", "3000", "--", "node"], /--port and --host are for --http/],
    [["proxy", "--port", "http", "--", "node"], /--port must be a port number/],
    [["proxy", "--allow", "/tool", "--", "node"], /--allow: expected "tool" or "server\/tool"/],
    [["proxy", "--deny", "calc/", "--", "node"], /--deny: expected "tool" or "server\/tool"/],
    [["proxy", "--deny", "calc/x", "--", "node"], /with one upstream, name tools without a server/],
    [["proxy", "--bogus", "--", "node"], /unknown option '--bogus'/],
    [["proxy", "-H", "X-A: b", "--", "node"], /--header and --transport are for a URL upstream/],
    [["proxy", "--env", "A=b", "http://127.0.0.1:1/mcp"], /--env is for a command upstream/],
    [["proxy", "--config", "no-such-file.json"], /--config: ENOENT/],
    [
      ["proxy", "--config", "CONFIG", "nosuch"],
      /--config: no server "nosuch" in the config \(it has: calc\)/,
    ],
    [
      ["proxy", "--config", "CONFIG", "--deny", "nosuch/x"],
      /names server "nosuch", which is not in the config/,
    ],
    [["proxy", "--config", "BAD_LISTS"], /server "calc": "denyTools" must be an array of tool names/],
    [
      ["proxy", "--config", "TYPO"],
      /--config: .*typo\.json: server "calc": unknown key "allowedTools" — did you mean "allowTools"\? \(at mcpServers\.calc\.allowedTools\)/,
    ],
    [["proxy", "--config", "BROKEN_JSON"], /--config: .*broken\.json:4:3: invalid JSON: /],
    [["proxy", "--audit", "/no/such/dir/audit.jsonl", "--", "node"], /--audit: ENOENT/],
  ])("2: usage error for mcpkit %j, before any server is started", async (args, message) => {
    const run = await mcpkit(
      args.map(
        (arg) => ({ CONFIG: config, BAD_LISTS: badLists, TYPO: typo, BROKEN_JSON: brokenJson })[arg] ?? arg,
      ),
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(message);
  });

  it.each([
    [["proxy", "--http", "--port", "0", "--", "mcpkit-no-such-command-xyz"], /could not connect to .*ENOENT/],
    [["proxy", "--stdio", "http://127.0.0.1:1/mcp"], /could not connect to http:\/\/127\.0\.0\.1:1\/mcp/],
    [["proxy", "--config", "UNREACHABLE"], /could not connect to .*unreachable\.json.*nothing/],
  ])("3: mcpkit %j cannot start or reach its upstream", async (args, message) => {
    const run = await mcpkit(args.map((arg) => (arg === "UNREACHABLE" ? unreachable : arg)));
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(message);
  });

  it("--help: 0, with the forms of the upstream and examples", async () => {
    const run = await mcpkit(["proxy", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "Usage: mcpkit proxy [options] (--config FILE | URL | -- command [args...])",
    );
    expect(run.stdout).toContain("$ mcpkit proxy --stdio http://localhost:3000/mcp");
  });

  it("0: over stdio, the proxy exits when its client closes stdin, its upstreams with it", async () => {
    const child = spawn(process.execPath, [CLI, "proxy", "--config", config], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    // Wait until it serves (it has said which tools it has), then hang up.
    const serving = "mcpkit: proxy: calc: 1 tool";
    await until(() => stderr.includes(serving), { what: `"${serving}" on the proxy's stderr` });
    const upstream = childrenOf(child.pid!);
    expect(upstream).toHaveLength(1);
    child.stdin.end();
    expect(await exited, stderr).toBe(0);
    expect(await allGone(upstream)).toBe(true);
  });

  it("0: a server whose variable is unset, and a disabled one, are left out and named on stderr", async () => {
    const child = spawn(process.execPath, [CLI, "proxy", "--config", partial], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const said = "disabled in the config";
    await until(() => stderr.includes(said), { what: `"${said}" on the proxy's stderr` });
    child.stdin.end();
    expect(await exited, stderr).toBe(0);
    expect(stderr).toContain("mcpkit: proxy: calc: 1 tool");
    expect(stderr).toContain(
      `mcpkit: proxy: github: left out: ${partial}: server "github": $` +
        "{MCPKIT_TEST_NO_SUCH_TOKEN} is not set",
    );
    expect(stderr).toContain("mcpkit: proxy: old: disabled in the config, left out");
  });

  it("0: over stdio in front of an HTTP server, answering through it", async () => {
    let http: HttpServerHandle | undefined;
    try {
      http = await createCalculatorServer().serveHttp({ port: 0 });
      const input = [
        initializeRequest({ protocolVersion: "2025-06-18" }),
        INITIALIZED,
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "calculator", arguments: { expression: "6 * 7" } },
        },
      ];
      const child = spawn(process.execPath, [CLI, "proxy", "--stdio", http.url], { cwd: ROOT });
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('"id":2')) child.stdin.end();
      });
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      child.stdin.write(input.map((message) => `${JSON.stringify(message)}\n`).join(""));
      expect(await exited).toBe(0);
      const answers = stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(answers.find((answer) => answer.id === 2)?.result.content[0].text).toBe("6 * 7 = 42");
    } finally {
      await http?.close();
    }
  });
});
