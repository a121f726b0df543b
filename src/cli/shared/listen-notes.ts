/** What `serve` and `proxy` say about the address they listen on, and about failing to listen. */
import { isLoopback } from "../../transports/http/shared/origin.js";
import { ConnectionError } from "./errors.js";
import { note } from "./status.js";
import { err } from "./terminal.js";

/**
 * Warns, before listening, when `host` is not a loopback address: anyone on the network can then
 * reach the server.
 */
export function warnIfReachable(host: string | undefined): void {
  if (host === undefined || isLoopback(host)) return;
  note(
    `mcpkit: ${err("yellow", "warning:")} --host ${host} makes the server reachable from the network ` +
      "(anyone who can reach this machine can use it, and Host and Origin headers are not checked); " +
      "--host 127.0.0.1 keeps it local",
  );
}

/**
 * A failure to listen, said with what to do about it (another port, `--port 0` for a free one,
 * another address); other errors are returned as they are.
 */
export function listenError(error: unknown, host: string | undefined, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `port ${port} on ${host ?? "127.0.0.1"}`;
  if (code === "EADDRINUSE") {
    return new ConnectionError(
      `${where} is already in use: choose another with --port N, or --port 0 for a free one`,
    );
  }
  if (code === "EACCES") {
    return new ConnectionError(
      `${where} is not allowed to this user${port < 1024 ? " (ports below 1024 need privileges)" : ""}: choose another with --port N, or --port 0 for a free one`,
    );
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") {
    return new ConnectionError(`cannot listen on ${host}: no such address on this machine (--host)`);
  }
  return error;
}
