/**
 * What the server sends besides results: log messages (stderr), progress (stderr), elicitation
 * (asked on a terminal, declined without one); a server named in a config file; Ctrl-C.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, json, mcpkit, OUR_SERVER, REFERENCE, REFERENCE_SERVER, ROOT, SLOW } from "./run.js";

const dir = mkdtempSync(join(tmpdir(), "mcpkit-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("logs and progress go to stderr, stdout keeps the result", SLOW, () => {
  it("log notifications are printed to stderr as [level] logger: message", async () => {
    const run = await mcpkit(["call", "test_tool_with_logging", "--json", ...OUR_SERVER]);
    expect(run.code, run.stderr).toBe(0);
    expect(json(run).content[0].text).toBe("Tool with logging executed successfully");
    expect(run.stderr).toContain("[info] everything: Tool execution started\n");
    expect(run.stderr).toContain("[info] everything: Tool execution completed\n");
  });

  it("--quiet drops them; --log-level asks the server for a level", async () => {
    const quiet = await mcpkit(["call", "test_tool_with_logging", "--quiet", ...OUR_SERVER]);
    expect(quiet.stderr).toBe("");
    const filtered = await mcpkit(["call", "test_tool_with_logging", "--log-level", "error", ...OUR_SERVER]);
    expect(filtered.code, filtered.stderr).toBe(0);
    expect(filtered.stderr).not.toContain("Tool execution started");
  });

  it("progress is not shown when stderr is not a terminal, unless --progress (one line each)", async () => {
    const plain = await mcpkit(["call", "test_tool_with_progress", ...OUR_SERVER]);
    expect(plain.stderr).toBe("");
    const run = await mcpkit(["call", "test_tool_with_progress", "--progress", ...OUR_SERVER]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^test_tool_with_progress \[#{10}-{10}\] 50% +Completed step 50 of 100$/m);
    expect(run.stderr).toMatch(/^test_tool_with_progress \[#{20}\] 100% +Completed step 100 of 100$/m);
    expect(run.stdout).toMatch(/^\[text\]\nDone, reported progress to /);
  });

  it("--verbose shows the server's own stderr", async () => {
    const run = await mcpkit(["tools", "--verbose", "--", process.execPath, REFERENCE]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^\[server\] /m);
  });
});

describe("elicitation", SLOW, () => {
  it("without a terminal the request is declined cleanly and the call goes on", async () => {
    const run = await mcpkit(["call", "test_elicitation", "--arg", "message=Who are you?", ...OUR_SERVER]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      "[text]\nElicitation declined by the user (action=decline): no content was provided\n",
    );
    expect(run.stderr).toContain(
      'mcpkit: the server asked for input ("Who are you?"); declined: stdin is not a terminal',
    );
    const reference = await mcpkit(["call", "trigger-elicitation-request", ...REFERENCE_SERVER]);
    expect(reference.code, reference.stderr).toBe(0);
    expect(reference.stdout).toContain('"action": "decline"');
  });

  /** Cursor movement and line clearing, as readline draws its prompts. */
  const ESCAPES = new RegExp(`${String.fromCharCode(27)}\\[\\d*[GJK]`, "g");
  const hasScript = spawnSync("script", ["--version"]).status === 0;

  /** Runs mcpkit on a pseudo-terminal (util-linux `script`), typing `answers` once it asks. */
  function onTerminal(args: string[], answers: string): Promise<{ code: number | null; output: string }> {
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
    return new Promise((resolve) => {
      child.on("close", (code) => resolve({ code, output: output.replace(/\r/g, "").replace(ESCAPES, "") }));
    });
  }

  const noTerminal = "util-linux script(1), which gives these runs a pseudo-terminal, is not installed";

  it("on a terminal each field is asked by type, with defaults and enum choices", async (ctx) => {
    ctx.skip(!hasScript, noTerminal);
    // name: default kept; age: 42; score: default; status: option 2; verified: n
    const run = await onTerminal(
      ["call", "test_elicitation_sep1034_defaults", ...OUR_SERVER],
      "y\n\n42\n\n2\nn\n",
    );
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("The server asks: Please review and update the form fields with defaults");
    expect(run.output).toContain("  name — User name\n    (string, optional) [John Doe]: ");
    expect(run.output).toContain("      2) inactive\n");
    expect(run.output).toContain("    (y/n, optional) [y]: ");
    const accepted = /Elicitation accepted: content=(\{.*\})/.exec(run.output);
    expect(JSON.parse(accepted![1]!)).toEqual({
      name: "John Doe",
      age: 42,
      score: 95.5,
      status: "inactive",
      verified: false,
    });
  });

  it("on a terminal a wrong answer is asked again; n declines", async (ctx) => {
    ctx.skip(!hasScript, noTerminal);
    const run = await onTerminal(
      ["call", "test_elicitation", "--arg", "message=Who?", ...OUR_SERVER],
      "y\nAda\nnot-an-email\nada@example.com\n",
    );
    expect(run.output).toContain("is not a valid email");
    expect(run.output).toContain(
      'Elicitation accepted: content={"username":"Ada","email":"ada@example.com"}',
    );
    const declined = await onTerminal(
      ["call", "test_elicitation", "--arg", "message=Who?", ...OUR_SERVER],
      "n\n",
    );
    expect(declined.code, declined.output).toBe(0);
    expect(declined.output).toContain("Elicitation declined by the user");
  });
});

describe("a server named in an mcpServers config file", SLOW, () => {
  const config = join(dir, "mcp.json");
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [CLI, "serve", "everything"] },
        reference: {
          command: process.execPath,
          args: [REFERENCE],
          env: { MCPKIT_TEST: "$" + "{MCPKIT_TEST_VALUE:-from-default}" }, // expanded by the config loader
        },
        offline: { url: "http://127.0.0.1:9/mcp" },
        github: {
          command: process.execPath,
          args: [REFERENCE],
          env: { TOKEN: "$" + "{MCPKIT_TEST_NO_SUCH_TOKEN}" },
          allowTools: ["echo"], // the proxy's, allowed in the same file
        },
      },
    }),
  );

  it("is reached by its name, with its env (variables expanded) plus --env", async () => {
    const read = await mcpkit(["read", "test://static-text", "--config", config, "everything"]);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain("This is the content of the static text resource.");
    const env = await mcpkit([
      "call",
      "get-env",
      "--json",
      "--env",
      "EXTRA=1",
      "--config",
      config,
      "reference",
    ]);
    const vars = JSON.parse(json(env).content[0].text);
    expect(vars.MCPKIT_TEST).toBe("from-default");
    expect(vars.EXTRA).toBe("1");
  });

  it("an unknown name is a usage error naming the servers there are; an offline URL a connection error", async () => {
    const unknown = await mcpkit(["tools", "--config", config, "nope"]);
    expect(unknown.code, unknown.stderr).toBe(2);
    expect(unknown.stderr).toContain('no server "nope" in');
    expect(unknown.stderr).toContain("(it has: everything, reference, offline, github)");
    const offline = await mcpkit(["tools", "--config", config, "offline"]);
    expect(offline.code, offline.stderr).toBe(3);
    expect(offline.stderr).toContain('could not connect to "offline" from mcp.json');
  });

  it("another server's unset variable does not matter; the named server's is a usage error naming it", async () => {
    // `everything` connected above although `github` uses an unset variable.
    const run = await mcpkit(["tools", "--config", config, "github"]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      `--config: ${config}: server "github": $` +
        "{MCPKIT_TEST_NO_SUCH_TOKEN} is not set; set it, or write $" +
        "{MCPKIT_TEST_NO_SUCH_TOKEN:-default} (at mcpServers.github.env.TOKEN)",
    );
  });

  it("a typo or invalid JSON in the file is a usage error with the file, the server and the key", async () => {
    const typo = join(dir, "typo.json");
    writeFileSync(typo, JSON.stringify({ mcpServers: { everything: { command: "node", arg: [CLI] } } }));
    const run = await mcpkit(["tools", "--config", typo, "everything"]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      `--config: ${typo}: server "everything": unknown key "arg" — did you mean "args"? (at mcpServers.everything.arg)`,
    );
    const broken = join(dir, "broken.json");
    writeFileSync(broken, '{\n  "mcpServers": {\n    "everything": { "command": "node" }\n  \n');
    const syntax = await mcpkit(["tools", "--config", broken, "everything"]);
    expect(syntax.code, syntax.stderr).toBe(2);
    expect(syntax.stderr).toContain(`--config: ${broken}:5:1: invalid JSON: `);
  });
});

describe("Ctrl-C", SLOW, () => {
  it("cancels the call in flight and exits with 130", async () => {
    const args = [
      "call",
      "trigger-long-running-operation",
      "--arg",
      "duration=60",
      "--arg",
      "steps=60",
      "--progress",
    ];
    const child = spawn(process.execPath, [CLI, ...args, ...REFERENCE_SERVER], { cwd: ROOT });
    let stderr = "";
    const inFlight = new Promise<void>((resolve) => {
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
        if (stderr.includes("trigger-long-running-operation [")) resolve(); // the first progress line
      });
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    await inFlight;
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toContain("mcpkit: interrupted");
  });
});
