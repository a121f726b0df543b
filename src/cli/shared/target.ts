/** Naming the server on the command line, and where that takes a connection: a command, a URL or a config entry. */

import { basename } from "node:path";
import type { OAuthOptions } from "../../client/auth/options.js";
import type { HttpClientOptions, StdioClientOptions } from "../../client/connect/options.js";
import { expandServerConfig, type ServerConfig } from "../../client/multi/config.js";
import { McpError } from "../../jsonrpc/errors.js";
import { type ProxyServerConfig, readProxyConfig } from "../../proxy/config.js";
import { httpTransportOf } from "../../transports/kinds.js";
import { cliAuth } from "./auth.js";
import { causeWithCode, describeError, UsageError } from "./errors.js";
import { type ClientCliOptions, envOf, headersOf } from "./options.js";
import { note } from "./status.js";
import { didYouMean } from "./suggest.js";
import { describeHeaders, describeUrl, type Tracer } from "./trace.js";

/** How usage lines show the server. */
export const SERVER_USAGE = "<server | -- command [args...]>";

/** What `--help` says about naming the server. */
export const SERVER_HELP =
  "The server is the last argument: a URL (Streamable HTTP, falling back to legacy SSE; --transport forces one), a name from --config mcp.json (the mcpServers format), or, after --, the command that starts a stdio server.";

/** The server as given: the operand naming it, or the command after `--`. */
export interface ServerSpec {
  name?: string;
  command?: string[];
}

const isUrl = (text: string) => /^https?:\/\//i.test(text);

/**
 * Splits the operands of a command into its own arguments and the server (the last operand, unless a
 * command was given after `--`), checking how many arguments it takes.
 */
export function splitOperands(
  operands: string[],
  command: string[] | undefined,
  count: { min: number; max: number },
): { args: string[]; server: ServerSpec } {
  let args = operands;
  let server: ServerSpec = { command };
  if (command === undefined) {
    if (operands.length <= count.min) {
      throw new UsageError(
        "name the server: a URL, a name from --config, or a command after -- (see --help)",
      );
    }
    args = operands.slice(0, -1);
    server = { name: operands.at(-1) };
  }
  if (args.length > count.max) throw new UsageError(`too many arguments: ${JSON.stringify(args)}`);
  if (args.length < count.min) throw new UsageError("missing arguments (see --help)");
  return { args, server };
}

/** Where a command connects: a label for messages, the client options, a config entry's timeout. */
type Target = { label: string; connect: StdioClientOptions | HttpClientOptions; timeout?: number };

/** Where to connect, from the server spec, the config file and the options. */
export async function resolveTarget(spec: ServerSpec, options: ClientCliOptions): Promise<Target> {
  const { command, name } = spec;
  if (command !== undefined) {
    if (name !== undefined)
      throw new UsageError("name the server once: a URL or a name, or a command after --");
    const [program, ...args] = command;
    if (program === undefined)
      throw new UsageError("nothing after --: give the command that starts the server");
    return { label: command.join(" "), connect: { command: program, args, env: envOf(options.env) } };
  }
  if (name === undefined)
    throw new UsageError("name the server: a URL, a name from --config, or a command after --");
  if (isUrl(name)) {
    const headers = headersOf(options.header);
    return {
      label: name,
      connect: { url: name, headers, transport: options.transport, ...oauthFor(name, headers, options) },
    };
  }
  if (!options.config) {
    throw new UsageError(
      `"${name}" is not a URL; to use a server by name give --config mcp.json, or start one with a command after --, e.g. mcpkit tools -- npx -y @modelcontextprotocol/server-everything`,
    );
  }
  // The file is checked whole (the same file serves `mcpkit proxy`, so its tool lists are allowed),
  // but only the named server's variables are expanded: another server's unset one does not matter.
  const configError = (error: unknown) => new UsageError(`--config: ${describeError(error)}`);
  let mcpServers: Record<string, ProxyServerConfig>;
  try {
    ({ mcpServers } = await readProxyConfig(options.config));
  } catch (error) {
    throw configError(error);
  }
  if (!Object.hasOwn(mcpServers, name)) {
    const names = Object.keys(mcpServers);
    const known = names.join(", ") || "none";
    throw new UsageError(
      `no server "${name}" in ${options.config}${didYouMean(name, names)} (it has: ${known})`,
    );
  }
  const { allowTools: _allow, denyTools: _deny, ...server } = mcpServers[name]!;
  let entry: ServerConfig;
  try {
    entry = expandServerConfig(name, server, { env: process.env, file: options.config });
  } catch (error) {
    throw configError(error);
  }
  const label = `"${name}" from ${basename(options.config)}`;
  if (entry.disabled) note(`mcpkit: ${label} is marked disabled; connecting anyway`);
  if ("command" in entry) {
    const env = { ...entry.env, ...envOf(options.env) };
    return {
      label,
      timeout: entry.timeout,
      connect: {
        command: entry.command,
        args: entry.args ?? [],
        env,
        cwd: entry.cwd,
        inheritEnv: entry.inheritEnv,
      },
    };
  }
  const named = entry.transport ?? entry.type;
  const transport = options.transport ?? (named && httpTransportOf(named));
  const headers = { ...entry.headers, ...headersOf(options.header) };
  const oauth = oauthFor(entry.url, headers, options);
  if (oauth.auth && entry.auth) oauth.auth = { ...oauth.auth, ...entry.auth };
  return { label, timeout: entry.timeout, connect: { url: entry.url, headers, transport, ...oauth } };
}

/**
 * OAuth for a server reached by URL, with the tokens `mcpkit login` keeps; none when the user sends
 * an `Authorization` header of their own.
 */
function oauthFor(url: string, headers: Record<string, string> | undefined, options: ClientCliOptions) {
  if (Object.keys(headers ?? {}).some((name) => name.toLowerCase() === "authorization")) return {};
  const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true;
  return { auth: cliAuth(options, url, interactive) as OAuthOptions | undefined };
}

/** A hint for a URL without a path that the server refused: most servers serve MCP at /mcp. */
export function mcpPathHint(target: Target, error: unknown): string {
  if (!("url" in target.connect) || !(error instanceof McpError)) return "";
  if (typeof (error.data as { httpStatus?: unknown } | undefined)?.httpStatus !== "number") return "";
  const url = new URL(target.connect.url);
  if (url.pathname !== "/") return "";
  url.pathname = "/mcp";
  return `\nmcpkit: most servers serve MCP at /mcp: try ${url.href}`;
}

/** A hint for a URL where nothing listens: the server is not running, or on another port. */
export function refusedHint(target: Target, error: unknown): string {
  if (!("url" in target.connect) || !causeWithCode(error, "ECONNREFUSED")) return "";
  const { host } = new URL(target.connect.url);
  return `\nmcpkit: nothing accepts connections at ${host}: is the server running, and on this port?`;
}

/** The first trace lines: what is started or reached (header values and env values not shown). */
export function traceTarget(tracer: Tracer, target: Target): void {
  const { connect } = target;
  if ("url" in connect) {
    const headers = typeof connect.headers === "object" ? describeHeaders(connect.headers) : "";
    const transport = connect.transport ?? "Streamable HTTP, then legacy SSE";
    tracer.info(
      `connecting to ${describeUrl(connect.url)} (${transport})${headers ? `; headers: ${headers}` : ""}`,
    );
  } else {
    const env = Object.keys(connect.env ?? {});
    const command = [connect.command, ...(connect.args ?? [])].join(" ");
    tracer.info(`starting ${command}${env.length > 0 ? `; env: ${env.join(", ")}` : ""}`);
  }
}
