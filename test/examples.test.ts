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
});
