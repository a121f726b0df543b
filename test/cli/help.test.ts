/** `--help` (with examples for every command) and `--version`, as a new user would first run them. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mcpkit, ROOT, SLOW } from "./run.js";

const COMMANDS = ["inspect", "tools", "resources", "prompts", "call", "read", "prompt", "complete", "serve"];

describe("help and version", SLOW, () => {
  it("--version prints the package version", async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    for (const flag of ["--version", "-v"]) {
      const run = await mcpkit([flag]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(`${version}\n`);
    }
  });

  it("--help lists every command, how to name the server, the output and examples", async () => {
    const run = await mcpkit(["--help"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe("");
    for (const command of COMMANDS) expect(run.stdout).toMatch(new RegExp(`^ {2}${command}\\b`, "m"));
    expect(run.stdout).toContain("Naming the server:");
    expect(run.stdout).toContain("-- COMMAND [ARGS...]");
    expect(run.stdout).toMatch(
      /^Examples:\n {2}\$ mcpkit inspect -- npx -y @modelcontextprotocol\/server-everything$/m,
    );
  });

  it.each(COMMANDS)("mcpkit %s --help has a usage line and examples of that command", async (command) => {
    const run = await mcpkit([command, "--help"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Usage: mcpkit ${command} \\[options\\]`));
    expect(run.stdout).toMatch(new RegExp(`^Examples:\\n {2}\\$ mcpkit ${command} `, "m"));
    if (command !== "serve") {
      expect(run.stdout).toContain("<server | -- command [args...]>");
      expect(run.stdout).toMatch(/--json +print JSON on stdout/);
      expect(run.stdout).toMatch(/-t, --timeout <duration>/);
    }
  });

  it("serve --help lists the bundled servers; help <command> works too", async () => {
    const serve = await mcpkit(["serve", "--help"]);
    expect(serve.stdout).toMatch(/^Bundled servers:\n {2}calculator +safe arithmetic evaluator/m);
    expect(serve.stdout).toMatch(/^ {2}everything +conformance fixture/m);
    const help = await mcpkit(["help", "call"]);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain("Usage: mcpkit call [options] <tool> [json]");
  });

  it("with no command it shows the help on stderr and exits with 2", async () => {
    const run = await mcpkit([]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain("Usage: mcpkit <command>");
  });
});
