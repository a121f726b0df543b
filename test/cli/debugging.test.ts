/**
 * What a server author debugs with, seen from a pipe (not a terminal): --trace, --protocol, --meta,
 * "did you mean", the /mcp hint, the warnings of `serve`, colour settings, and no spinner.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, json, mcpkit, OUR_SERVER, REFERENCE_SERVER, ROOT, SLOW } from "./run.js";

const dir = mkdtempSync(join(tmpdir(), "mcpkit-debug-"));
let server: ChildProcessWithoutNullStreams;
let url: string;
let serverStderr = "";

beforeAll(async () => {
  server = spawn(process.execPath, [CLI, "serve", "everything", "--http", "--port", "0"], { cwd: ROOT });
  url = await new Promise<string>((resolve, reject) => {
    server.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      serverStderr += chunk;
      const found = /listening on (http:\/\/\S+\/mcp)\n/.exec(serverStderr);
      if (found && serverStderr.includes("legacy HTTP+SSE clients")) resolve(found[1]!);
    });
    server.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${serverStderr}`)));
  });
}, 60_000);

afterAll(() => {
  if (server.exitCode === null) server.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** `12:34:56.789 → {…}` lines of a trace, parsed. */
function traced(text: string): { direction: "→" | "←"; message: Record<string, any> }[] {
  return [...text.matchAll(/^\d\d:\d\d:\d\d\.\d{3} ([→←]) (\{.*\})$/gm)].map((match) => ({
    direction: match[1] as "→" | "←",
    message: JSON.parse(match[2]!),
  }));
}

const ESC = "\u001b[";
/** Whether `text` has what a spinner or colour would leave: carriage returns, braille frames, escapes. */
const terminalOnly = (text: string) => /[\r\u2800-\u28ff]/.test(text) || text.includes("\u001b");

describe("--trace", SLOW, () => {
  it("prints every message both ways on stderr, with the time; stdout keeps the result", async () => {
    const run = await mcpkit(["call", "test_simple_text", "--trace", "--json", ...OUR_SERVER]);
    expect(run.code, run.stderr).toBe(0);
    expect(json(run).content[0].text).toBe("This is a simple text response for testing.");
    expect(run.stderr).toMatch(/^\d\d:\d\d:\d\d\.\d{3} # starting .*serve everything$/m);
    const lines = traced(run.stderr);
    const call = lines.find((l) => l.direction === "→" && l.message.method === "tools/call");
    expect(call?.message.params).toMatchObject({ name: "test_simple_text", arguments: {} });
    const answer = lines.find((l) => l.direction === "←" && l.message.id === call?.message.id);
    expect(answer?.message.result.content[0].text).toBe("This is a simple text response for testing.");
    // The connection is traced from its first message.
    expect(lines[0]!.direction).toBe("→");
    expect(["server/discover", "initialize"]).toContain(lines[0]!.message.method);
    expect(terminalOnly(run.stderr)).toBe(false);
  });

  it("--trace=FILE writes it to the file, stderr stays quiet, and credentials are hidden", async () => {
    const file = join(dir, "trace.log");
    const run = await mcpkit([
      "tools",
      `--trace=${file}`,
      "-H",
      "Authorization: Bearer s3cret-token",
      "--json",
      url,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe("");
    const trace = readFileSync(file, "utf8");
    expect(trace).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} # connecting to http:\/\/127\.0\.0\.1:\d+\/mcp .*Authorization: \[redacted\]$/m,
    );
    expect(traced(trace).some((l) => l.direction === "←" && Array.isArray(l.message.result?.tools))).toBe(
      true,
    );
    expect(trace).not.toContain("s3cret");
    expect(trace).not.toContain(ESC);
  });

  it("--trace before a URL leaves the URL as the server; a file that cannot be written is a usage error", async () => {
    const run = await mcpkit(["tools", "--trace", url]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("test_simple_text");
    expect(traced(run.stderr).length).toBeGreaterThan(1);
    const bad = await mcpkit(["tools", `--trace=${join(dir, "no-such-dir", "t.log")}`, url]);
    expect(bad.code, bad.stderr).toBe(2);
    expect(bad.stderr).toMatch(/^mcpkit: --trace=.*ENOENT/m);
  });
});

describe("--protocol pins a revision", SLOW, () => {
  it("asks for that revision and only that one", async () => {
    const run = await mcpkit(["inspect", "--protocol", "2025-06-18", "--trace", "--json", ...OUR_SERVER]);
    expect(run.code, run.stderr).toBe(0);
    expect(json(run).protocolVersion).toBe("2025-06-18");
    const sent = traced(run.stderr).filter((l) => l.direction === "→");
    expect(sent[0]!.message).toMatchObject({
      method: "initialize",
      params: { protocolVersion: "2025-06-18" },
    });
    expect(sent.some((l) => l.message.method === "server/discover")).toBe(false);
    const modern = await mcpkit(["inspect", "--protocol", "2026-07-28", "--json", ...OUR_SERVER]);
    expect(json(modern).protocolVersion).toBe("2026-07-28");
  });

  it("fails when the server speaks another revision, and suggests one for a typo", async () => {
    const other = await mcpkit(["tools", "--protocol", "2026-07-28", ...REFERENCE_SERVER]);
    expect(other.code, other.stderr).toBe(3);
    expect(other.stderr).toMatch(/pinned to protocol 2026-07-28, and the server does not speak it/);
    const typo = await mcpkit(["tools", "--protocol", "2025-06-81", ...OUR_SERVER]);
    expect(typo.code, typo.stderr).toBe(2);
    expect(typo.stderr).toMatch(/--protocol: no revision "2025-06-81"; did you mean "2025-06-18"\?/);
  });
});

describe("--json and --meta", SLOW, () => {
  it("results come without the protocol's metadata unless --meta", async () => {
    const plain = json(await mcpkit(["call", "test_simple_text", "--json", ...OUR_SERVER]));
    expect(plain).toEqual({
      content: [{ type: "text", text: "This is a simple text response for testing." }],
    });
    const meta = json(await mcpkit(["call", "test_simple_text", "--json", "--meta", ...OUR_SERVER]));
    expect(meta.resultType).toBe("complete");
    expect(meta._meta["io.modelcontextprotocol/serverInfo"].name).toBe("mcpkit-everything");
    const read = json(await mcpkit(["read", "test://static-text", "--json", ...OUR_SERVER]));
    expect(Object.keys(read)).toEqual(["contents"]);
    const readMeta = json(await mcpkit(["read", "test://static-text", "--json", "--meta", ...OUR_SERVER]));
    expect(readMeta).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
  });
});

describe("did you mean", SLOW, () => {
  it.each([
    [
      ["call", "test_simple_txt"],
      /no tool "test_simple_txt" on this server; did you mean "test_simple_text"\?/,
    ],
    [
      ["prompt", "test_simple_promt"],
      /no prompt "test_simple_promt" on this server; did you mean "test_simple_prompt"\?/,
    ],
    [["read", "test://static-txt"], /not found.*; did you mean test:\/\/static-text\?/i],
  ])("mcpkit %j suggests the name the server has", async (args, message) => {
    const run = await mcpkit([...args, ...OUR_SERVER]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(message);
  });

  it("a server name from --config, before anything starts", async () => {
    const config = join(dir, "mcp.json");
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { everything: { command: "node" }, other: { command: "node" } } }),
    );
    const run = await mcpkit(["tools", "--config", config, "everythin"]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/no server "everythin" in .*mcp\.json; did you mean "everything"\?/);
  });
});

describe("hints about HTTP", SLOW, () => {
  it("a URL without a path that the server refuses suggests /mcp", async () => {
    const base = url.replace(/\/mcp$/, "");
    const run = await mcpkit(["inspect", base]);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(`mcpkit: most servers serve MCP at /mcp: try ${base}/mcp\n`);
  });

  it("serve on a port in use suggests another or --port 0", async () => {
    const port = new URL(url).port;
    const run = await mcpkit(["serve", "calculator", "--port", port]);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(`mcpkit: port ${port} on 127.0.0.1 is already in use`);
    expect(run.stderr).toContain("--port 0 for a free one");
    expect(run.stderr).not.toContain("warning");
  });

  it("serve --host 0.0.0.0 warns that the server is reachable from the network; loopback does not", async () => {
    expect(serverStderr).not.toContain("warning");
    // On a port in use the warning comes and the bind fails: nothing is exposed while testing.
    const port = new URL(url).port;
    const child = spawn(process.execPath, [CLI, "serve", "calculator", "--host", "0.0.0.0", "--port", port], {
      cwd: ROOT,
    });
    let stderr = "";
    const warned = new Promise<void>((resolve) => {
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
        if (stderr.includes("reachable from the network")) resolve();
      });
      child.on("exit", () => resolve());
    });
    await warned;
    if (child.exitCode === null) child.kill("SIGKILL");
    expect(stderr).toMatch(
      /^mcpkit: warning: --host 0\.0\.0\.0 makes the server reachable from the network/m,
    );
  });
});

describe("colour and width", SLOW, () => {
  it("no colour through a pipe; FORCE_COLOR forces it, NO_COLOR or FORCE_COLOR=0 keep it off", async () => {
    const plain = await mcpkit(["tools", ...OUR_SERVER]);
    expect(plain.stdout).toMatch(/^ {2}NAME +ARGUMENTS +DESCRIPTION$/m);
    expect(terminalOnly(plain.stdout + plain.stderr)).toBe(false);
    const forced = await mcpkit(["tools", ...OUR_SERVER], { env: { FORCE_COLOR: "1" } });
    expect(forced.stdout).toContain(`${ESC}1m  NAME`);
    expect(forced.stdout).toMatch(/^\S+ {2}NAME +ARGUMENTS +DESCRIPTION\S+$/m);
    const error = await mcpkit(["tools", "not-a-url"], { env: { FORCE_COLOR: "1" } });
    expect(error.stderr.startsWith(`${ESC}31mmcpkit:${ESC}39m "not-a-url" is not a URL`)).toBe(true);
    for (const env of [{ NO_COLOR: "1" }, { FORCE_COLOR: "0" }]) {
      const off = await mcpkit(["tools", "not-a-url"], { env });
      expect(off.stderr).toMatch(/^mcpkit: "not-a-url" is not a URL/);
    }
    const machine = await mcpkit(["tools", "--json", ...OUR_SERVER], { env: { FORCE_COLOR: "1" } });
    expect(machine.stdout).not.toContain(ESC);
    expect(json(machine).tools.length).toBeGreaterThan(0);
  });

  it("tables fit the width (COLUMNS without a terminal)", async () => {
    const run = await mcpkit(["tools", ...OUR_SERVER], { env: { COLUMNS: "80" } });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(lines.some((line) => line.endsWith("…"))).toBe(true);
  });
});
