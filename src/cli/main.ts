#!/usr/bin/env node
/** `mcpkit`: inspect and call MCP servers from the command line, and run the bundled ones. */
import { Command, CommanderError } from "commander";
import { VERSION as version } from "../version.js";
import { registerAuditCommand } from "./commands/audit.js";
import { registerAuthCommands } from "./commands/auth.js";
import { registerCallCommand } from "./commands/call.js";
import { registerCompleteCommand } from "./commands/complete.js";
import { registerListCommands } from "./commands/list.js";
import { registerPromptCommand } from "./commands/prompt.js";
import { registerProxyCommand } from "./commands/proxy.js";
import { registerReadCommand } from "./commands/read.js";
import { registerServeCommand } from "./commands/serve.js";
import { registerTasksCommand } from "./commands/tasks.js";
import type { CliContext } from "./shared/command.js";
import { debugDetails, describeError, EXIT_CODES_HELP, Exit, exitCodeOf } from "./shared/errors.js";
import { rewriteTrace } from "./shared/options.js";
import { clearStatus } from "./shared/status.js";
import { SERVER_USAGE } from "./shared/target.js";
import { err } from "./shared/terminal.js";

const OVERVIEW = `
Naming the server:
  The server is the last argument:
    http://host:port/mcp   a URL: Streamable HTTP, falling back to legacy SSE
                           (--transport forces one; --header adds HTTP headers); a
                           protected server asks you to sign in (OAuth), or run
                           mcpkit login URL first
    NAME --config FILE     a server from an mcpServers config file (mcp.json)
    -- COMMAND [ARGS...]   a command that starts a stdio server (--env adds variables)

Output:
  Human-readable by default: aligned tables, long text truncated with a note (--full shows
  all), content blocks as [type], images and audio summarised. --json prints only JSON on
  stdout. Log messages from the server, progress (on a terminal) and errors go to stderr.
  Text from a server cannot drive the terminal: its control characters are shown as escapes
  (\\x1b, \\r, \\u202e) and each piece is capped in length (tool output and contents at 1 MiB
  with --full); --json writes them as JSON escapes, and --raw to a file or pipe is exact.
  When the server asks for input (elicitation), mcpkit asks you field by field if stdin is a
  terminal, and declines otherwise. Colour only on a terminal (NO_COLOR turns it off,
  FORCE_COLOR on); tables fit its width (or COLUMNS).

Debugging a server:
  --trace                print every JSON-RPC message both ways, with the time, on stderr
                         (--trace=FILE writes them to a file); credentials are hidden
  --verbose              also print what a stdio server writes to its stderr
  --debug                on an error, also print its stack, the errors that caused it and
                         their codes (NODE_OPTIONS=--enable-source-maps maps the stack to src/)
  --protocol REVISION    speak only that revision (fails if the server answers another);
                         --protocol-version REVISION is the same
  --json --meta          keep what the protocol adds to a result (resultType, ttlMs, _meta)

Examples:
  $ mcpkit inspect -- npx -y @modelcontextprotocol/server-everything
  $ mcpkit call echo --arg message=hello -- npx -y @modelcontextprotocol/server-everything
  $ mcpkit tools http://localhost:3000/mcp
  $ mcpkit read test://static-text --config mcp.json everything
  $ mcpkit prompt args-prompt --arg city=Paris --json -- npx -y @modelcontextprotocol/server-everything
  $ mcpkit serve everything --http --port 3000
  $ mcpkit tools --trace --protocol 2025-06-18 -- node server.js

  mcpkit <command> --help shows each command's options and examples.

${EXIT_CODES_HELP}
`;

/**
 * Splits off what follows the first `--` after the command: for a client command the command that
 * starts the server, for `serve` the server's own arguments. Commander never sees it.
 */
function splitAtDashes(argv: string[]): { argv: string[]; afterDashes: string[] | undefined } {
  const command = argv.findIndex((arg) => !arg.startsWith("-"));
  const dash = argv.indexOf("--");
  if (dash < 0 || command < 0 || command > dash || argv[command] === "help") {
    return { argv, afterDashes: undefined };
  }
  return { argv: argv.slice(0, dash), afterDashes: argv.slice(dash + 1) };
}

/** `call <tool> [json]` in the list of commands: the usage without options and the server. */
const subcommandTerm = (command: Command) =>
  `${command.name()} ${command
    .usage()
    .replace(/^\[options\] ?/, "")
    .replace(SERVER_USAGE, "")}`.trim();

function program(context: CliContext): Command {
  const root = new Command("mcpkit")
    .description(
      `mcpkit ${version}: inspect and call Model Context Protocol servers, and run the bundled ones`,
    )
    .usage("<command> [arguments...] [options]")
    .version(version, "-v, --version", "print the version")
    .option("--debug", "on an error, also print its stack, its causes and their codes")
    .helpOption("-h, --help", "show help and examples")
    .configureOutput({
      writeOut: (text) => process.stdout.write(text),
      writeErr: (text) => process.stderr.write(text),
      outputError: (text, write) => write(text.replace(/^error: /, "mcpkit: ")),
    })
    .showHelpAfterError("(add --help for usage and examples)")
    .exitOverride()
    .configureHelp({ subcommandTerm, showGlobalOptions: true })
    .addHelpText("after", OVERVIEW);
  registerListCommands(root, context);
  registerCallCommand(root, context);
  registerReadCommand(root, context);
  registerPromptCommand(root, context);
  registerCompleteCommand(root, context);
  registerTasksCommand(root, context);
  registerServeCommand(root, context);
  registerProxyCommand(root, context);
  registerAuthCommands(root);
  registerAuditCommand(root, context);
  return root;
}

/**
 * Writes an error as one sentence on stderr; with `--debug`, the stack, causes and codes below it.
 * `name` (\`McpError\`) is the one shown, never the class's bundled name.
 */
function report(error: unknown, debug: boolean): void {
  clearStatus();
  process.stderr.write(`${err("red", "mcpkit:")} ${describeError(error)}\n`);
  if (debug) process.stderr.write(`${debugDetails(error)}\n`);
}

/** Runs the command line; resolves with the exit code (a server run by `serve` keeps the process alive). */
async function main(args: string[], debug: boolean): Promise<number> {
  const { argv, afterDashes } = splitAtDashes(args);
  const context: CliContext = { afterDashes, exitCode: Exit.Ok };
  try {
    // serve passes options it does not know to the server it runs; proxy has no --trace.
    const command = argv.find((arg) => !arg.startsWith("-"));
    const own = command === "serve" || command === "proxy" ? argv : rewriteTrace(argv);
    await program(context).parseAsync(own, { from: "user" });
    return context.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      clearStatus();
      // Help and version exit with 0; the rest is a usage error commander has already printed.
      return error.exitCode === 0 ? Exit.Ok : Exit.Usage;
    }
    report(error, debug);
    return exitCodeOf(error);
  }
}

const args = process.argv.slice(2);
/** `--debug`, wherever it is before a `--`: errors that end the run are shown whole. */
const debug = splitAtDashes(args).argv.includes("--debug");

// A reader that went away (`mcpkit tools … | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? Exit.Ok);
    throw error;
  });
}

// What escapes every command (a bug, or a failure in a callback) is reported like any other error,
// rather than as Node's dump of bundled source and frames.
const crash = (error: unknown) => {
  report(error, debug);
  process.exit(Exit.Connection);
};
process.on("uncaughtException", crash);
process.on("unhandledRejection", crash);

main(args, debug).then((code) => {
  process.exitCode = code;
}, crash);
