/**
 * The exit codes scripts rely on: 0 ok, 1 the tool reported an error, 2 usage error, 3 connection or
 * protocol error. Errors go to stderr as one `mcpkit: …` line; with --json stdout stays empty on errors.
 */
import { describe, expect, it } from "vitest";
import { json, mcpkit, OUR_SERVER, REFERENCE_SERVER, SLOW } from "./run.js";

describe("exit codes", SLOW, () => {
  it("0: the command did what was asked", async () => {
    const run = await mcpkit(["call", "test_simple_text", ...OUR_SERVER]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("[text]\nThis is a simple text response for testing.\n");
  });

  it("1: the tool ran and reported an error (isError); the result is still printed", async () => {
    const run = await mcpkit(["call", "test_error_handling", ...OUR_SERVER]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toBe("[error, text]\nThis tool intentionally returns an error for testing\n");
    expect(run.stderr).toContain('mcpkit: the tool "test_error_handling" reported an error (isError)');
    const machine = await mcpkit(["call", "test_error_handling", "--json", ...OUR_SERVER]);
    expect(machine.code, machine.stderr).toBe(1);
    expect(json(machine)).toMatchObject({ isError: true, content: [{ type: "text" }] });
  });

  it("1: arguments the tool's schema rejects, sent unchecked, come back from the server as a tool error", async () => {
    const run = await mcpkit([
      "call",
      "get-sum",
      '{"a": "two", "b": 2}',
      "--no-validate",
      ...REFERENCE_SERVER,
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain("[error, text]");
  });

  it.each([
    [["frobnicate"], /unknown command 'frobnicate'/],
    [["tools"], /name the server/],
    [["tools", "--bogus", "--", "node"], /unknown option '--bogus'/],
    [["tools", "not-a-url"], /"not-a-url" is not a URL; to use a server by name give --config/],
    [["call", "--", "node"], /missing required argument 'tool'/],
    [["call", "echo", "{oops", "--", "node"], /the arguments \{oops are not valid JSON/],
    [["call", "echo", "[1, 2]", "--", "node"], /must be a JSON object/],
    [["call", "echo", "--arg", "message", "--", "node"], /--arg: expected key=value, not "message"/],
    [["tools", "--timeout", "soon", "--", "node"], /--timeout: expected a duration/],
    [["tools", "--transport", "pigeon", "--", "node"], /Allowed choices are streamable-http, sse/],
    [["complete", "tool", "x", "y", "--", "node"], /the kind is "prompt" or "template", not "tool"/],
    [["tools", "--config", "no-such-file.json", "everything"], /--config: ENOENT/],
    [["serve", "no-such-server"], /no bundled server "no-such-server" \(there are: calculator, everything/],
    [["serve", "calculator", "extra"], /serve calculator: takes no arguments/],
    [["serve", "everything", "--http", "--port", "http"], /--port must be a port number/],
  ])("2: usage error for mcpkit %j, before any server is started", async (args, message) => {
    const run = await mcpkit(args);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(message);
  });

  it.each([
    [["call", "no_such_tool"], /no tool "no_such_tool" on this server \(it has: .*test_simple_text/],
    [["read", "test://no-such-resource"], /not found|Unknown resource/i],
    [
      ["prompt", "test_prompt_with_arguments", "--arg", "arg1=x"],
      /prompt "test_prompt_with_arguments" needs --arg for: arg2/,
    ],
    [["prompt", "no_such_prompt"], /no prompt "no_such_prompt"/],
  ])("2: usage error for mcpkit %j that the server shows to be wrong", async (args, message) => {
    const run = await mcpkit([...args, "--json", ...OUR_SERVER]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(message);
  });

  it("3: a server command that does not exist", async () => {
    const run = await mcpkit(["tools", "--", "mcpkit-no-such-command-xyz"]);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^mcpkit: could not connect to mcpkit-no-such-command-xyz: .*ENOENT/m);
  });

  it("3: a server that exits before the handshake, with its last stderr lines", async () => {
    const run = await mcpkit([
      "tools",
      "--",
      process.execPath,
      "-e",
      "console.error('boom: no config'); process.exit(1)",
    ]);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain("could not connect to");
    expect(run.stderr).toContain("boom: no config");
  });

  it("3: an unreachable URL, with either transport", async () => {
    for (const extra of [[], ["--transport", "sse"]]) {
      const run = await mcpkit(["inspect", ...extra, "http://127.0.0.1:9/mcp", "--json"]);
      expect(run.code, run.stderr).toBe(3);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(
        /^mcpkit: could not connect to http:\/\/127\.0\.0\.1:9\/mcp: .*ECONNREFUSED/m,
      );
    }
  });

  it("3: a request that outlives --timeout", async () => {
    const run = await mcpkit([
      "call",
      "trigger-long-running-operation",
      "--arg",
      "duration=30",
      "--arg",
      "steps=1",
      "--timeout",
      // Long enough for the reference server to start on a loaded machine, far short of the call.
      "10s",
      ...REFERENCE_SERVER,
    ]);
    expect(run.code, run.stderr).toBe(3);
    // The call (its deadline, or its request's own timeout), or on a slow machine the handshake;
    // said in a sentence, without "(timeout)" glued on.
    expect(run.stderr).toMatch(
      /"trigger-long-running-operation" did not finish within 10 s \(--timeout\); mcpkit told the server to cancel the call\n$|timed out after 10000 ms\n$|within 10000 ms\n$/,
    );
  }, 60_000);

  it("--help lists the exit codes", async () => {
    const run = await mcpkit(["--help"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Exit codes:\n {2}0 +success\n {2}1 +the tool ran and reported an error/m);
    expect(run.stdout).toMatch(/^ {2}2 +usage error/m);
    expect(run.stdout).toMatch(/^ {2}3 +connection or protocol error/m);
  });
});
