import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { inertJson, peerText } from "./peer-text.js";

/** The exit codes of `mcpkit`; scripts may rely on them. */
export const Exit = {
  /** Done. */
  Ok: 0,
  /** `call`: the tool ran and reported a failure (`isError: true`). */
  ToolError: 1,
  /** The command line is wrong, or the server refused it as invalid (unknown tool, bad arguments, …). */
  Usage: 2,
  /** The server could not be started or reached, or the connection or protocol failed (timeouts too). */
  Connection: 3,
  /** Interrupted (Ctrl-C). */
  Interrupted: 130,
} as const;

/** What `--help` says about exit codes. */
export const EXIT_CODES_HELP = `Exit codes:
  0    success
  1    the tool ran and reported an error (call: isError is true)
  2    usage error: bad options or arguments, unknown command, tool, prompt or server name,
       invalid JSON, or a request the server refused as invalid (bad arguments, unknown
       resource, a feature it does not offer)
  3    connection or protocol error: the server could not be started or reached, the handshake
       failed, the connection dropped, a request timed out, or the server answered with any
       other error
  130  interrupted (Ctrl-C)`;

/** A mistake on the command line (exit code 2). */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** A failure to start or reach the server (exit code 3), with what was tried. */
export class ConnectionError extends Error {
  override readonly name = "ConnectionError";
}

/** JSON-RPC errors that mean "your request was wrong", not "the connection failed". */
const REFUSED: number[] = [ErrorCode.InvalidParams, ErrorCode.MethodNotFound, ErrorCode.ResourceNotFound];

/** The exit code for an error thrown while running a command. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return Exit.Usage;
  if (error instanceof McpError && REFUSED.includes(error.code)) return Exit.Usage;
  return Exit.Connection;
}

/**
 * One line (or a few) saying what went wrong: the message alone, without a stack or a JSON-RPC
 * code (`--debug` adds them, see `debugDetails`). Inert: an error's message may be a server's, or
 * carry what it wrote to stderr.
 */
export function describeError(error: unknown): string {
  if (error instanceof McpError) {
    // The official SDK's servers put "MCP error -32602: " in front of their messages.
    return peerText(error.message.replace(/^MCP error -?\d+: /, ""), "text");
  }
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return peerText(error.message + (cause && !error.message.includes(cause.slice(2)) ? cause : ""), "text");
  }
  return peerText(error, "text");
}

/** `at _McpError.fromObject`: a frame naming a class as the bundle renamed it. */
const BUNDLED_NAME = /(\bat (?:async )?(?:new )?)_([A-Z])/g;

/** How deep `debugDetails` follows `cause`: a cycle or a long chain stops there. */
const MAX_CAUSES = 8;

/**
 * What `--debug` prints below the sentence: the error and each of its causes, with its name,
 * message and stack as Node gives them, its `code` (JSON-RPC or system) and its `data`. Inert, as
 * messages and data may be a server's.
 */
export function debugDetails(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSES && current !== undefined && current !== null; depth++) {
    const lines: string[] = [];
    if (current instanceof Error) {
      // esbuild renames a class that refers to itself (`_McpError`): frames show the real name.
      lines.push((current.stack ?? `${current.name}: ${current.message}`).replace(BUNDLED_NAME, "$1$2"));
      const { code, data } = current as { code?: unknown; data?: unknown };
      if (code !== undefined) lines.push(`  code: ${String(code)}`);
      if (data !== undefined) lines.push(`  data: ${inertJson(data)}`);
    } else lines.push(typeof current === "string" ? current : inertJson(current));
    parts.push(`${depth === 0 ? "" : "caused by: "}${lines.join("\n")}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  return peerText(parts.join("\n"), "text");
}

/**
 * Whether `error` or one of its causes is the system error `code` (`ECONNREFUSED`, …), by its
 * `code` or, for one that crossed the client's transport as a JSON-RPC error, its message.
 */
export function causeWithCode(error: unknown, code: string): Error | undefined {
  let current = error;
  for (let depth = 0; depth < MAX_CAUSES && current instanceof Error; depth++) {
    if ((current as { code?: unknown }).code === code || current.message.includes(code)) return current;
    current = current.cause;
  }
  return undefined;
}
