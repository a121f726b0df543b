/** How a command that talks to a server is declared: arguments, options, help, and the run. */
import type { Command } from "commander";
import { addClientOptions, type ClientCliOptions } from "./options.js";
import { inertJson } from "./peer-text.js";
import { type Session, withClient } from "./session.js";
import { SERVER_HELP, SERVER_USAGE, splitOperands } from "./target.js";

/** State shared by the commands of one run. */
export interface CliContext {
  /**
   * What followed `--` on the command line: for a client command the command that starts a stdio
   * server, for `serve` the server's own arguments.
   */
  afterDashes: string[] | undefined;
  /** The exit code the run ends with. */
  exitCode: number;
}

interface ClientCommandSpec<O> {
  name: string;
  /** The command's own operands, e.g. `<tool> [json]`; the server operand is added after them. */
  operands?: string;
  /** How many of those operands it takes. */
  count?: { min: number; max: number };
  /** One line for the list of commands. */
  summary: string;
  /** The first sentence of `--help`; default the summary. */
  description?: string;
  /** More text for `--help`, before the examples. */
  details?: string;
  /** Each example as a command line, then what it does. */
  examples: [string, string][];
  /** Adds the command's own options. */
  configure?: (command: Command) => Command;
  /** Checks the arguments before connecting: a usage error should not wait for the server. */
  check?: (args: string[], options: ClientCliOptions & O) => void;
  run: (session: Session, args: string[], options: ClientCliOptions & O) => Promise<number>;
}

/**
 * Joins the lines of each paragraph, so that commander wraps them to the terminal; lines that start
 * with whitespace, `<` or `[` (lists of arguments) stay as they are.
 */
export function unwrap(text: string): string {
  return text.replace(/([^\n])\n(?=[^\n\s<[])/g, "$1 ");
}

/** The "Examples:" section of a command's help. */
export function examplesHelp(examples: [string, string][]): string {
  return `\nExamples:\n${examples.map(([line, what]) => `  $ ${line}\n      ${what}`).join("\n")}\n`;
}

/** Declares a command that connects to the server named on its command line. */
export function clientCommand<O>(program: Command, context: CliContext, spec: ClientCommandSpec<O>): Command {
  const command = program
    .command(spec.name)
    .summary(spec.summary)
    .description(
      unwrap(
        `${spec.description ?? spec.summary}.${spec.details ? `\n\n${spec.details}` : ""}\n\n${SERVER_HELP}`,
      ),
    )
    .arguments(`${spec.operands ?? ""} [server]`.trim())
    .usage(`[options] ${spec.operands ? `${spec.operands} ` : ""}${SERVER_USAGE}`);
  spec.configure?.(command);
  addClientOptions(command)
    .addHelpText("after", examplesHelp(spec.examples))
    .action(async (...params: unknown[]) => {
      const self = params.at(-1) as Command;
      const options = self.opts<ClientCliOptions & O>();
      const { args, server } = splitOperands(
        self.args,
        context.afterDashes,
        spec.count ?? { min: 0, max: 0 },
      );
      spec.check?.(args, options);
      const timeoutIsDefault = self.getOptionValueSource("timeout") === "default";
      context.exitCode = await withClient(server, options, timeoutIsDefault, (session) =>
        spec.run(session, args, options),
      );
    });
  return command;
}

/** Writes `value` as JSON on stdout, with no character a terminal acts on (the same value parses). */
export function printJson(value: unknown): void {
  process.stdout.write(`${inertJson(value, 2)}\n`);
}

/** Fields a stateless (2026-07-28) result carries for the protocol rather than for the reader. */
const PROTOCOL_FIELDS = ["resultType", "ttlMs", "cacheScope"];
/** `_meta` keys reserved by MCP (server identity, related task, …), as opposed to the server's own. */
const PROTOCOL_META = "io.modelcontextprotocol/";

/**
 * A result without what the protocol adds to it: `resultType`, the caching hints and the
 * `io.modelcontextprotocol/` keys of `_meta` (dropped when nothing else is left in it).
 */
export function withoutProtocolMeta(result: object): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...result };
  for (const field of PROTOCOL_FIELDS) delete copy[field];
  const meta = copy._meta;
  if (typeof meta === "object" && meta !== null && !Array.isArray(meta)) {
    const own = Object.entries(meta).filter(([key]) => !key.startsWith(PROTOCOL_META));
    if (own.length > 0) copy._meta = Object.fromEntries(own);
    else delete copy._meta;
  }
  return copy;
}

/** Writes a result as JSON on stdout: without the protocol's metadata unless `meta` (`--meta`). */
export function printResult(result: object, meta: boolean | undefined): void {
  printJson(meta ? result : withoutProtocolMeta(result));
}

/** Adds `--meta`, for commands that print a result with `--json`. */
export function addMetaOption(command: Command): Command {
  return command.option(
    "--meta",
    "with --json, keep what the protocol adds to the result (resultType, ttlMs, cacheScope, io.modelcontextprotocol/ _meta)",
  );
}

/** Writes human output on stdout. */
export function print(text: string): void {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}
