import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { peerText } from "./peer-text.js";

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
 * One line (or a few) saying what went wrong, without a stack. Inert: an error's message may be a
 * server's, or carry what it wrote to stderr.
 */
export function describeError(error: unknown): string {
  if (error instanceof McpError) {
    const code =
      error.code === ErrorCode.RequestTimeout ? "timeout" : `error ${peerText(error.code, "name")}`;
    // The official SDK's servers put "MCP error -32602: " in front of their messages.
    return `${peerText(error.message.replace(/^MCP error -?\d+: /, ""), "text")} (${code})`;
  }
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return peerText(error.message + (cause && !error.message.includes(cause.slice(2)) ? cause : ""), "text");
  }
  return peerText(error, "text");
}
