/**
 * `serve <name> [server args…] [--http [--port N] [--host H] [--auth-issuer URL …]]`: run a bundled
 * server.
 */
import type { Command } from "commander";
import type { RedisReplication } from "../../redis/replication.js";
import type { McpServer } from "../../server/server.js";
import { BUNDLED_SERVERS, type BundledServerContext } from "../../servers/index.js";
import { type AuthCliOptions, authOf, authOptions, noteProtected } from "../shared/auth-options.js";
import { type CliContext, examplesHelp, unwrap } from "../shared/command.js";
import { describeError, UsageError } from "../shared/errors.js";
import { listenError, warnIfReachable } from "../shared/listen-notes.js";
import { checkRedisUrl, type RedisCliOptions, redisOption, replicationOf } from "../shared/redis-option.js";
import { note } from "../shared/status.js";

/**
 * A bundled server as `serve` runs it. `create` gets the arguments after the server's name that are
 * not `serve`'s own (`--http`, `--port`, `--host`), in order, e.g. `["/srv/a", "--read-only"]`; what
 * follows a `--` comes after a `"--"` element. It throws an `Error` saying what is wrong with them
 * (shown as a usage error, exit 2). `usage` (e.g. `<dir…> [--read-only]`) is shown in help; a server
 * without one takes no arguments. Under `--redis`, `context.tasks` has the replicas' task store and bus.
 */
interface BundledServer {
  description: string;
  usage?: string;
  create: (args: string[], context?: BundledServerContext) => McpServer | Promise<McpServer>;
}

export type BundledServers = Record<string, BundledServer>;

interface ServeOptions extends AuthCliOptions, RedisCliOptions {
  http?: boolean;
  port?: string;
  host?: string;
}

/** `filesystem <dir…> [--read-only]`: the name, then the usage (which may already start with it). */
function synopsis(name: string, server: BundledServer): string {
  if (!server.usage) return name;
  return server.usage.startsWith(`${name} `) ? server.usage : `${name} ${server.usage}`;
}

function serversHelp(servers: BundledServers): string {
  const entries = Object.entries(servers).map(([name, server]) => [
    synopsis(name, server),
    server.description,
  ]);
  const width = Math.max(...entries.map(([term]) => term!.length));
  return `\nBundled servers:\n${entries.map(([term, what]) => `  ${term!.padEnd(width)}  ${what}`).join("\n")}\n`;
}

function portOf(text: string | undefined): number {
  if (text === undefined) return 3000;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new UsageError(`--port must be a port number (0 picks a free one), not "${text}"`);
  }
  return port;
}

/** The bundled server `name`, its arguments checked; a usage error names what is wrong. */
function bundledServer(servers: BundledServers, name: string, args: string[]): BundledServer {
  const server = Object.hasOwn(servers, name) ? servers[name] : undefined;
  if (!server) {
    throw new UsageError(
      `serve: no bundled server "${name}" (there are: ${Object.keys(servers).join(", ")})`,
    );
  }
  if (!server.usage && args.length > 0) {
    const given = args.map((a) => JSON.stringify(a)).join(" ");
    throw new UsageError(`serve ${name}: takes no arguments, got ${given}`);
  }
  return server;
}

/**
 * Makes the server; with `--redis` (connected first) its tasks are kept in Redis, and a replica
 * that gets a `tasks/cancel` or `tasks/update` for another's task carries it there on the bus.
 */
async function createServer(
  server: BundledServer,
  name: string,
  args: string[],
  replication: RedisReplication | undefined,
): Promise<McpServer> {
  const context: BundledServerContext = replication
    ? { tasks: { store: replication.taskStore(), bus: replication.bus } }
    : {};
  try {
    return await server.create(args, context);
  } catch (error) {
    await replication?.close();
    throw new UsageError(`serve ${name}: ${describeError(error)}`);
  }
}

async function serve(
  server: McpServer,
  name: string,
  options: ServeOptions,
  replication: RedisReplication | undefined,
): Promise<void> {
  const auth = await authOf(options, false);
  const http =
    options.http ||
    options.port !== undefined ||
    options.host !== undefined ||
    auth !== undefined ||
    options.redis !== undefined;
  if (!http) {
    await server.serveStdio(); // the process exits when stdin closes
    return;
  }
  const port = portOf(options.port);
  warnIfReachable(options.host);
  const handle = await server
    .serveHttp({
      port,
      host: options.host,
      legacySse: true,
      ...(auth ? { auth } : {}),
      ...(replication ? { replication } : {}),
    })
    .catch(async (error: unknown) => {
      await replication?.close();
      throw listenError(error, options.host, port);
    });
  note(`mcpkit: ${name} listening on ${handle.url}`);
  note(`mcpkit: legacy HTTP+SSE clients: ${new URL("/sse", handle.url).href}`);
  if (auth) noteProtected(auth.issuer, auth.resource ?? handle.url, auth.scopes);
  const stop = () =>
    void handle
      .close()
      .then(() => replication?.close())
      .then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

/** Declares `serve`; `servers` are the ones it can run (the bundled ones unless a test gives others). */
export function registerServeCommand(
  program: Command,
  context: CliContext,
  servers: BundledServers = BUNDLED_SERVERS,
): Command {
  const command = program
    .command("serve")
    .summary("Run a bundled server")
    .description(
      unwrap(`Run a bundled server over stdio (the default), or over Streamable HTTP with --http, with the
legacy HTTP+SSE transport at /sse beside it. Arguments after the server's name that are not
serve's own options go to the server, in order; put them after -- if they look like serve's.

Over HTTP the URL is printed on stderr ("mcpkit: <name> listening on http://…/mcp"); bound to
a loopback address (the default) the server only accepts localhost Host and Origin headers; any
other address (0.0.0.0) makes it reachable from the network, and mcpkit warns.
--port 0 picks a free port. SIGINT or SIGTERM stops it.

With --auth-issuer every HTTP request needs an access token from that authorization server, meant
for this server (--auth-audience, by default the URL it listens on) and granting --scopes: the
protected-resource metadata is served at /.well-known/oauth-protected-resource, and a request
without such a token gets 401 (403 for missing scopes) with the challenge that leads a client to
the authorization server.`),
    )
    .argument("<name>", "the bundled server")
    .argument("[args...]", "the server's own arguments")
    .option("--http", "serve Streamable HTTP instead of stdio")
    .option("--port <n>", "HTTP port (default 3000; 0 picks a free one; implies --http)")
    .option("--host <address>", "HTTP address to bind (default 127.0.0.1; implies --http)");
  return redisOption(authOptions(command))
    .allowUnknownOption()
    .addHelpText(
      "after",
      serversHelp(servers) +
        examplesHelp([
          ["mcpkit serve calculator", "the calculator over stdio (what MCP clients spawn)"],
          [
            "mcpkit serve everything --http --port 3000",
            "the everything server at http://127.0.0.1:3000/mcp",
          ],
          [
            "mcpkit serve everything --port 3000 --auth-issuer https://auth.example.com --scopes mcp:tools",
            "the same, for callers with a token from that authorization server",
          ],
          [
            "mcpkit serve everything --port 3001 --redis redis://127.0.0.1:6379",
            "one of several replicas behind a load balancer, sessions kept in Redis",
          ],
          ["mcpkit tools -- mcpkit serve calculator", "list its tools through the CLI itself"],
          ["npx @modelcontextprotocol/inspector mcpkit serve calculator", "open it in the MCP Inspector"],
        ]),
    )
    .action(async (name: string, args: string[], options: ServeOptions) => {
      // A bad port or auth option is a usage error before anything starts.
      portOf(options.port);
      checkRedisUrl(options.redis);
      await authOf(options, false);
      const tail = context.afterDashes?.length ? ["--", ...context.afterDashes] : [];
      const all = [...args, ...tail];
      const server = bundledServer(servers, name, all);
      const replication = await replicationOf(options.redis);
      await serve(await createServer(server, name, all, replication), name, options, replication);
    });
}
