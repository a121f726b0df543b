import { type Command, Option } from "commander";
import { type ProtocolVersion, SUPPORTED_VERSIONS } from "../../protocol/revisions/index.js";
import type { LoggingLevel } from "../../protocol/types/client-features.js";
import { LOGGING_LEVELS } from "../../server/sessions/logging.js";
import { HTTP_TRANSPORTS, type HttpTransportKind } from "../../transports/kinds.js";
import type { AuthCliOptions } from "./auth.js";
import { UsageError } from "./errors.js";
import { didYouMean } from "./suggest.js";

/** The options every command that talks to a server takes. */
export interface ClientCliOptions extends AuthCliOptions {
  config?: string;
  header?: string[];
  transport?: HttpTransportKind;
  env?: string[];
  timeout: number;
  logLevel?: LoggingLevel;
  json?: boolean;
  full?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  /** `--trace`: the traffic on stderr. */
  trace?: boolean;
  /** `--trace=FILE` (rewritten to `--trace-file FILE` before commander sees it). */
  traceFile?: string;
  /** `--protocol`: the one revision to speak. */
  protocol?: ProtocolVersion;
  /** `--protocol-version`: the same, by the name the spec gives it. */
  protocolVersion?: ProtocolVersion;
}

/** The revision `--protocol` or `--protocol-version` pins, if either does; both must agree. */
export function pinnedRevision(options: ClientCliOptions): ProtocolVersion | undefined {
  const { protocol, protocolVersion } = options;
  if (protocol && protocolVersion && protocol !== protocolVersion) {
    throw new UsageError(
      `--protocol ${protocol} and --protocol-version ${protocolVersion} disagree: give one revision`,
    );
  }
  return protocol ?? protocolVersion;
}

const LOG_LEVELS: readonly LoggingLevel[] = LOGGING_LEVELS;

/** Commander's way of collecting a repeated option. */
export const collect = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  value,
];

/** `30`, `30s`, `500ms`, `2m` → milliseconds; a bare number is seconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!match)
    throw new UsageError(`--timeout: expected a duration such as 30, 30s, 500ms or 2m, not "${text}"`);
  const amount = Number(match[1]);
  const ms = match[2] === "ms" ? amount : match[2] === "m" ? amount * 60_000 : amount * 1000;
  if (ms <= 0) throw new UsageError("--timeout must be more than zero");
  return Math.round(ms);
}

/** A `--protocol` (or `--protocol-version`) value: one of the revisions this client speaks. */
export function parseRevision(text: string, option = "--protocol"): ProtocolVersion {
  const known = SUPPORTED_VERSIONS.find((version) => version === text);
  if (known) return known;
  throw new UsageError(
    `${option}: no revision "${text}"${didYouMean(text, SUPPORTED_VERSIONS)} (there are: ${SUPPORTED_VERSIONS.join(", ")})`,
  );
}

/**
 * Rewrites `--trace=FILE` as `--trace-file FILE`: `--trace` alone takes no value, so that in
 * `--trace http://host/mcp` the URL stays the server.
 */
export function rewriteTrace(argv: string[]): string[] {
  return argv.flatMap((arg) => {
    if (!arg.startsWith("--trace=")) return [arg];
    const file = arg.slice("--trace=".length);
    if (file === "") throw new UsageError("--trace=: give a file name, or --trace alone for stderr");
    return ["--trace-file", file];
  });
}

/** `--trace`, shown in help as `--trace[=file]`. */
function traceOption(): Option {
  const option = new Option("--trace", "print every JSON-RPC message, with the time, on stderr (or to file)");
  option.flags = "--trace[=file]";
  return option;
}

/** Adds the options for reaching a server and shaping the output. */
export function addClientOptions(command: Command): Command {
  return command
    .option("-c, --config <file>", "read servers from an mcpServers config file (mcp.json); name one")
    .option("-H, --header <name:value>", "HTTP header to send (repeatable)", collect)
    .option("--client-id <id>", "OAuth: a client registered with the server's authorization server")
    .option("--scopes <scopes>", "OAuth: scopes to ask for when the server names none (comma-separated)")
    .option("--no-browser", "OAuth: print the sign-in URL instead of opening a browser")
    .addOption(
      new Option("--transport <kind>", "HTTP transport (default: Streamable HTTP, then legacy SSE)").choices(
        HTTP_TRANSPORTS,
      ),
    )
    .option(
      "-e, --env <KEY=VALUE>",
      "environment variable for a server started by command (repeatable)",
      collect,
    )
    .addOption(
      new Option(
        "-t, --timeout <duration>",
        "time limit of the handshake and of each request, and when given of a whole call (a task's run included): 30, 30s, 500ms, 2m",
      )
        .argParser(parseDuration)
        .default(60_000, "60s"),
    )
    .addOption(
      new Option(
        "--log-level <level>",
        "the least severe log messages to ask the server for (default: info)",
      ).choices(LOG_LEVELS),
    )
    .option("-j, --json", "print JSON on stdout (nothing else goes there)")
    .option("--full", "do not truncate long text")
    .option("-q, --quiet", "do not print the server's log messages or progress")
    .option("--verbose", "also print what the server writes to its stderr")
    .addOption(traceOption())
    .addOption(new Option("--trace-file <file>").hideHelp())
    .addOption(
      new Option(
        "--protocol <revision>",
        `speak only this protocol revision: ${SUPPORTED_VERSIONS.join(", ")}`,
      ).argParser(parseRevision),
    )
    .addOption(
      new Option("--protocol-version <revision>", "the same as --protocol").argParser((text) =>
        parseRevision(text, "--protocol-version"),
      ),
    );
}

/** Splits `key=value` (the first `=`); `what` names the option in errors. */
export function splitPair(pair: string, what: string, separator = "="): [string, string] {
  const at = pair.indexOf(separator);
  if (at <= 0) throw new UsageError(`${what}: expected key${separator}value, not "${pair}"`);
  return [pair.slice(0, at).trim(), pair.slice(at + 1)];
}

/** `--env` pairs as an object. */
export function envOf(pairs: string[] = []): Record<string, string> | undefined {
  if (pairs.length === 0) return undefined;
  return Object.fromEntries(pairs.map((pair) => splitPair(pair, "--env")));
}

/** `--header` values (`name: value` or `name:value`) as an object. */
export function headersOf(values: string[] = []): Record<string, string> | undefined {
  if (values.length === 0) return undefined;
  return Object.fromEntries(
    values.map((value) => {
      const [name, text] = splitPair(value, "--header", ":");
      return [name, text.trim()];
    }),
  );
}

/** Parses a JSON object given on the command line; `what` names it in errors. */
export function parseJsonObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} ${text} are not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`${what} must be a JSON object such as '{"name": "value"}', not ${text}`);
  }
  return value as Record<string, unknown>;
}
