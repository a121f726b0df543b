/** How a command that talks to a server is declared: arguments, options, help, and the run. */
import type { Command } from "commander";
import { addClientOptions, type ClientCliOptions } from "./options.js";
import { SERVER_HELP, SERVER_USAGE, type Session, splitOperands, withClient } from "./session.js";

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

export interface ClientCommandSpec<O> {
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

/** Writes `value` as JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Writes human output on stdout. */
export function print(text: string): void {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}
