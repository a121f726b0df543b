/**
 * Errors as the CLI prints them: one sentence (and a hint), no class name as the bundle renamed it,
 * no stack frames, no JSON-RPC code glued on; `--debug` adds the stack, the causes and their codes.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { debugDetails, describeError } from "../../src/cli/shared/errors.js";
import { McpError } from "../../src/jsonrpc/errors.js";
import { CLI, mcpkit, OUR_SERVER, ROOT, SLOW } from "./run.js";

/** A port nothing listens on: one the system gave, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** What must never be in the plain output. */
function expectClean(stderr: string): void {
  expect(stderr).not.toContain("_McpError");
  expect(stderr).not.toContain("chunk-");
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr).not.toMatch(/\(error -?\d+\)/);
}

const EXITS_AT_ONCE = ["--", process.execPath, "-e", 'console.error("boom: no config"); process.exit(1)'];

describe("errors as printed", SLOW, () => {
  it("connection refused: one sentence and a hint; --debug adds the stack and the code", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const plain = await mcpkit(["tools", url]);
    expect(plain.code).toBe(3);
    expectClean(plain.stderr);
    expect(plain.stderr).toMatch(
      /^mcpkit: could not connect to http:\/\/127\.0\.0\.1:\d+\/mcp: .*ECONNREFUSED[^\n(]*\n/,
    );
    expect(plain.stderr).toMatch(
      /\nmcpkit: nothing accepts connections at 127\.0\.0\.1:\d+: is the server running/,
    );
    const debug = await mcpkit(["tools", "--debug", url]);
    expect(debug.code).toBe(3);
    expect(debug.stderr.split("\n")[0]).toBe(plain.stderr.split("\n")[0]);
    expect(debug.stderr).toMatch(/\nConnectionError: could not connect/);
    expect(debug.stderr).toMatch(/\ncaused by: McpError: POST .*ECONNREFUSED/);
    expect(debug.stderr).toMatch(/\n {4}at /);
    expect(debug.stderr).toContain("\n  code: -32603");
    expect(debug.stderr).not.toContain("_McpError");
  });

  it("a server that exits at once: its stderr line as it wrote it; --debug adds the causes", async () => {
    const plain = await mcpkit(["tools", ...EXITS_AT_ONCE]);
    expect(plain.code).toBe(3);
    expectClean(plain.stderr);
    expect(plain.stderr).toMatch(
      /the server process exited \(code 1\)\nServer stderr \(last lines\):\nboom: no config\n$/,
    );
    const debug = await mcpkit(["--debug", "tools", ...EXITS_AT_ONCE]);
    expect(debug.stderr).toContain("\ncaused by: McpError: Connection closed");
    expect(debug.stderr).toContain("\n  code: -32000");
    expect(debug.stderr).toMatch(/\n {4}at /);
    expect(debug.stderr).not.toContain("_McpError");
  });

  it("a JSON-RPC error from a tool: its message; --debug adds the stack and the code", async () => {
    const plain = await mcpkit(["call", "protocol_error_job", ...OUR_SERVER]);
    expect(plain.code).toBe(3);
    expect(plain.stderr).toBe("mcpkit: protocol_error_job hit an internal error\n");
    const debug = await mcpkit(["call", "protocol_error_job", "--debug", ...OUR_SERVER]);
    expect(debug.code).toBe(3);
    expect(debug.stderr).toMatch(
      /^mcpkit: protocol_error_job hit an internal error\nMcpError: protocol_error_job hit an internal error\n {4}at /,
    );
    expect(debug.stderr).toContain("\n  code: -32603");
    expect(debug.stderr).not.toContain("_McpError");
  });
});

describe("debugDetails", () => {
  it("follows causes (a cycle stops), shows codes and data inert, and names bundled classes as written", () => {
    const inner = new Error("socket hang up");
    Object.assign(inner, { code: "ECONNRESET" });
    const error = new McpError(-32603, "fetch failed", { why: "\u001b[31m" }, { cause: inner });
    error.stack =
      "McpError: fetch failed\n    at _McpError.fromObject (x.js:1:1)\n    at new _ToolTask (x.js:2:2)";
    inner.cause = error;
    const text = debugDetails(error);
    expect(text).toContain("    at McpError.fromObject (x.js:1:1)\n    at new ToolTask (x.js:2:2)");
    expect(text).toContain('  code: -32603\n  data: {"why":"\\u001b[31m"}');
    expect(text).toContain("caused by: Error: socket hang up");
    expect(text).toContain("  code: ECONNRESET");
    expect(text.match(/caused by:/g)).toHaveLength(7);
    expect(describeError(error)).toBe("fetch failed");
  });
});

describe("an error that escapes every command", SLOW, () => {
  /**
   * Runs `mcpkit serve everything` (which stays up) with a module preloaded that rejects a promise
   * with an McpError made inside the bundle once the server says it listens: nothing handles it.
   */
  async function escaped(debug: boolean) {
    const dir = mkdtempSync(join(tmpdir(), "mcpkit-escape-"));
    const preload = join(dir, "escape.mjs");
    writeFileSync(
      preload,
      `import { McpError } from ${JSON.stringify(pathToFileURL(join(ROOT, "dist/index.js")).href)};
const write = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) => {
  if (String(chunk).includes("listening on")) {
    process.stderr.write = write;
    setImmediate(() => Promise.reject(McpError.fromObject({ code: -32603, message: "escaped" })));
  }
  return write(chunk, ...rest);
};`,
    );
    try {
      return await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const args = [
          "--import",
          pathToFileURL(preload).href,
          CLI,
          "serve",
          "everything",
          "--http",
          "--port",
          "0",
        ];
        const child = spawn(process.execPath, debug ? [...args, "--debug"] : args, { cwd: ROOT });
        let stderr = "";
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
          stderr += chunk;
        });
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stderr }));
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("is reported as one sentence, exit 3; --debug adds its stack under its own name", async () => {
    const plain = await escaped(false);
    expect(plain.code).toBe(3);
    expect(plain.stderr).toMatch(/\nmcpkit: escaped\n$/);
    expectClean(plain.stderr);
    const debug = await escaped(true);
    expect(debug.code).toBe(3);
    expect(debug.stderr).toMatch(/\nmcpkit: escaped\nMcpError: escaped\n {4}at McpError\.fromObject /);
    expect(debug.stderr).not.toContain("_McpError");
  });
});
