/**
 * Peer text is inert in a terminal: whatever a server puts in its name, descriptions, tool output,
 * logs, progress, questions, errors and stderr, no control sequence of it reaches mcpkit's stdout or
 * stderr (it is shown as a visible escape), long text is capped, and what the user asked to get
 * exactly (--json, --raw to a pipe) still is.
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CLI, json, mcpkit, ROOT, type Run, SLOW } from "./run.js";

const HOSTILE = fileURLToPath(new URL("./hostile-server.js", import.meta.url));
const SERVER = ["--", process.execPath, HOSTILE];

/** What the server puts in every string (as in hostile-server.js): title, clear, overwrite, C1 CSI, RTL. */
const EVIL = "\u001b]0;pwned\u0007\u001b[2J\rOVERWRITTEN\u009b31m\u202eevil";

/** What a terminal acts on: C0 controls but line feed and tab, DEL, C1 controls, bidi overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Each control character in `text` with a little of what surrounds it, for a readable failure. */
function controls(text: string): string[] {
  return [...text.matchAll(CONTROL)].map((m) =>
    JSON.stringify(text.slice(Math.max(0, m.index - 20), m.index + 10)),
  );
}

function expectInert(run: Run): void {
  expect(controls(run.stdout), "stdout").toEqual([]);
  expect(controls(run.stderr), "stderr").toEqual([]);
}

/** The hostile payload as mcpkit shows it. */
const SHOWN = "\\x1b]0;pwned\\x07\\x1b[2J\\rOVERWRITTEN\\x9b31m\\u202eevil";

describe("hostile peer text", SLOW, () => {
  it("inspect shows the server's name, instructions, tools, resources and prompts inertly", async () => {
    const run = await mcpkit(["inspect", ...SERVER]);
    expect(run.code, run.stderr).toBe(0);
    expectInert(run);
    expect(run.stdout).toContain(`server ${SHOWN} end`);
    expect(run.stdout).toContain(`instructions ${SHOWN} end`);
    // The table cuts the description to its width, never inside a raw sequence.
    expect(run.stdout).toContain("evil tool \\x1b]");
  });

  it("tools, resources and prompts list inertly", async () => {
    for (const command of ["tools", "resources", "prompts"]) {
      const run = await mcpkit([command, "--full", ...SERVER]);
      expect(run.code, run.stderr).toBe(0);
      expectInert(run);
      expect(run.stdout).toContain(SHOWN);
    }
  });

  it("call shows tool output, log messages, progress and stderr lines inertly", async () => {
    const run = await mcpkit(["call", "evil", "--progress", "--verbose", "--full", ...SERVER]);
    expect(run.code, run.stderr).toBe(0);
    expectInert(run);
    // Tool output keeps its lines.
    expect(run.stdout).toContain(`tool output ${SHOWN} end`);
    expect(run.stdout).toMatch(/^second line/m);
    expect(run.stderr).toContain(`[warning] logger ${SHOWN} end: log line`);
    expect(run.stderr).toContain(`[level ${SHOWN} end]`);
    expect(run.stderr).toContain(`progress ${SHOWN} end`);
    expect(run.stderr).toContain(`[server] stderr line ${SHOWN} end`);
  });

  it("a log level named like a property of every object does not crash a coloured run", async () => {
    const run = await mcpkit(["call", "evil", ...SERVER], { env: { FORCE_COLOR: "1" } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("[constructor] odd level");
  });

  it("--json stays exact JSON, with no raw C1 or bidi character in it", async () => {
    const run = await mcpkit(["call", "evil", "--json", ...SERVER]);
    expect(run.code, run.stderr).toBe(0);
    expect(controls(run.stdout)).toEqual([]);
    const result = json(run);
    expect(result.content[0].text).toBe(`tool output ${EVIL} end\nsecond line`);
    expect(result.structuredContent.text).toBe(`structured ${EVIL} end`);

    const tools = await mcpkit(["tools", "--json", ...SERVER]);
    expect(controls(tools.stdout)).toEqual([]);
    expect(json(tools).tools[0].description).toBe(`evil tool ${EVIL} end`);
  });

  it("--trace shows the messages inertly", async () => {
    const run = await mcpkit(["call", "evil", "--trace", "--json", ...SERVER]);
    expect(run.code, run.stderr).toBe(0);
    expectInert(run);
  });

  it("the question of a declined elicitation is inert", async () => {
    const run = await mcpkit(["call", "ask", ...SERVER]);
    expect(run.code, run.stderr).toBe(0);
    expectInert(run);
    expect(run.stderr).toContain(`the server asked for input ("question ${SHOWN} end"); declined`);
  });

  it("a server's error message is inert and capped", async () => {
    const run = await mcpkit(["call", "fail", ...SERVER]);
    expect(run.code).toBe(3);
    expectInert(run);
    expect(run.stderr).toContain(`xxxx`);
    expect(run.stderr).toMatch(/more characters/);
    expect(run.stderr.length).toBeLessThan(20_000);
  });

  it("the stderr tail of a server that died is inert", async () => {
    const run = await mcpkit(["call", "crash", ...SERVER]);
    expect(run.code).toBe(3);
    expectInert(run);
    expect(run.stderr).toContain(`dying 2 ${SHOWN} end`);
  });

  it("read and prompt show contents and messages inertly", async () => {
    const read = await mcpkit(["read", "test://evil", ...SERVER]);
    expect(read.code, read.stderr).toBe(0);
    expectInert(read);
    expect(read.stdout).toContain(`contents ${SHOWN} end\nline 2`);

    const prompt = await mcpkit(["prompt", "evil", ...SERVER]);
    expect(prompt.code, prompt.stderr).toBe(0);
    expectInert(prompt);
    expect(prompt.stdout).toContain(`prompt text ${SHOWN} end\nline 2`);
    expect(prompt.stdout).toContain(`[role ${SHOWN} end, text]`);
  });

  it("completion values are inert, one per line", async () => {
    const run = await mcpkit(["complete", "prompt", "evil", "argument", ...SERVER]);
    expect(run.code, run.stderr).toBe(0);
    expectInert(run);
    expect(run.stdout).toBe(`value ${SHOWN} end\\nwith a line\n`);
  });

  it("proxy names a hostile upstream inertly", async () => {
    const proxy = spawn(process.execPath, [CLI, "proxy", "--http", "--port", "0", ...SERVER], { cwd: ROOT });
    let stderr = "";
    proxy.stderr.setEncoding("utf8");
    try {
      await new Promise<void>((resolve, reject) => {
        proxy.stderr.on("data", (chunk: string) => {
          stderr += chunk;
          if (stderr.includes("legacy HTTP+SSE clients")) resolve();
        });
        proxy.on("exit", (code) => reject(new Error(`proxy exited with ${code}: ${stderr}`)));
      });
    } finally {
      proxy.kill("SIGTERM");
      if (proxy.exitCode === null && proxy.signalCode === null) await once(proxy, "exit");
    }
    expect(controls(stderr)).toEqual([]);
    expect(stderr).toContain(`mcpkit: proxy: server ${SHOWN} end: 5 tools`);
  });

  it("read --raw to a pipe stays byte-exact, text and binary", async () => {
    const text = await mcpkit(["read", "test://evil", "--raw", ...SERVER]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe(`contents ${EVIL} end\nline 2`);
    const blob = await mcpkit(["read", "test://blob", "--raw", ...SERVER]);
    expect(blob.code, blob.stderr).toBe(0);
    expect(blob.bytes).toEqual(Buffer.from(`\u001b]0;pwned\u0007\u009b\u0000\u00ff${EVIL}`, "latin1"));
  });
});

describe("hostile peer text on a terminal", SLOW, () => {
  const hasScript = spawnSync("script", ["--version"]).status === 0;

  /**
   * Runs mcpkit on a pseudo-terminal (util-linux `script`), typing `answers` once it asks, and
   * returns what the terminal got without mcpkit's own sequences: the spinner and status line
   * (`\r ESC[2K`), readline's cursor moves (`ESC[nG`, `ESC[0J`), colours (`ESC[nm`), and the
   * terminal's `\r\n` line ends. Whatever control character is left came from the server.
   */
  function onTerminal(args: string[], answers = ""): Promise<{ code: number | null; output: string }> {
    const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
    const command = [process.execPath, CLI, ...args].map(quote).join(" ");
    const child = spawn("script", ["-qfec", command, "/dev/null"], { cwd: ROOT });
    let output = "";
    let typed = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      if (!typed && output.includes("Answer? [Y]es")) {
        typed = true;
        child.stdin.write(answers);
      }
    });
    const own = new RegExp(`\r${ESC}\\[2K|${ESC}\\[(?:\\d+G|0J|\\d+m)|\r+(?=\n)`, "g");
    return new Promise((resolve) => {
      child.on("close", (code) => resolve({ code, output: output.replace(own, "") }));
    });
  }
  const ESC = String.fromCharCode(27);

  it.skipIf(!hasScript)("the elicitation form: question, field, title, description and choices", async () => {
    const run = await onTerminal(["call", "ask", ...SERVER], "y\n2\n");
    expect(run.code, run.output).toBe(0);
    expect(controls(run.output)).toEqual([]);
    expect(run.output).toContain(`The server asks: question ${SHOWN} end`);
    expect(run.output).toContain(`      1) first ${SHOWN} end\n      2) second\n`);
    expect(run.output).toContain(':"second"}');
  });

  it.skipIf(!hasScript)("read --raw shows text inertly and refuses binary contents", async () => {
    const text = await onTerminal(["read", "test://evil", "--raw", ...SERVER]);
    expect(text.code, text.output).toBe(0);
    expect(controls(text.output)).toEqual([]);
    expect(text.output).toContain(`contents ${SHOWN} end\nline 2`);
    const blob = await onTerminal(["read", "test://blob", "--raw", ...SERVER]);
    expect(blob.code, blob.output).toBe(2);
    expect(controls(blob.output)).toEqual([]);
    expect(blob.output).toContain("test://blob is binary (");
  });
});
