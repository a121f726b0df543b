/**
 * `proxy`: serve a stdio server over HTTP, an HTTP server over stdio, or the servers of a config file
 * as one, with allow/deny lists, a gateway's policy and an audit log.
 */
import { readFile } from "node:fs/promises";
import { type Command, Option } from "commander";
import { ConfigError } from "../../client/multi/config-error.js";
import { AuditLog } from "../../proxy/audit-log.js";
import { createProxyServer, type ProxyServer } from "../../proxy/proxy.js";
import { HTTP_TRANSPORTS } from "../../transports/kinds.js";
import { authOf, authOptions, noteProtected } from "../shared/auth-options.js";
import { type CliContext, examplesHelp, unwrap } from "../shared/command.js";
import { ConnectionError, describeError, UsageError } from "../shared/errors.js";
import { listenError, warnIfReachable } from "../shared/listen-notes.js";
import { collect, parseDuration } from "../shared/options.js";
import { otelExporterOf, startTracing } from "../shared/otel.js";
import { peerText } from "../shared/peer-text.js";
import { checkRedisUrl, redisOption, replicationOf } from "../shared/redis-option.js";
import { note } from "../shared/status.js";
import { checkRules, type ProxyCliOptions, upstreamOptions } from "./proxy-upstream.js";

function portOf(text: string | undefined): number {
  if (text === undefined) return 3000;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new UsageError(`--port must be a port number (0 picks a free one), not "${text}"`);
  }
  return port;
}

/**
 * One stderr line per server: its tools, the ones hidden, the ones that failed or are disabled. A
 * single upstream goes by the name it gave itself, so names are shown inert.
 */
function describeServers(proxy: ProxyServer, disabled: string[] = []): void {
  const counts = new Map<string, number>();
  for (const tool of proxy.exposedTools()) counts.set(tool.server, (counts.get(tool.server) ?? 0) + 1);
  const hidden = proxy.hiddenTools();
  const failed = new Map(proxy.failures.map(({ server, error }) => [server, error]));
  for (const server of proxy.servers) {
    const error = failed.get(server);
    const shown = peerText(server, "name");
    if (error) {
      const why = error instanceof ConfigError ? "left out" : "could not connect, left out";
      note(`mcpkit: proxy: ${shown}: ${why}: ${describeError(error)}`);
      continue;
    }
    const count = counts.get(server) ?? 0;
    const hiddenText = hidden[server] ? `, ${hidden[server]} hidden by allow/deny` : "";
    note(`mcpkit: proxy: ${shown}: ${count} tool${count === 1 ? "" : "s"}${hiddenText}`);
  }
  for (const server of disabled) note(`mcpkit: proxy: ${server}: disabled in the config, left out`);
}

async function run(operands: string[], context: CliContext, options: ProxyCliOptions): Promise<void> {
  if (options.http && options.stdio) throw new UsageError("--http and --stdio exclude each other");
  const auth = await authOf(options, options.stdio === true);
  checkRedisUrl(options.redis);
  if (options.stdio && options.redis !== undefined)
    throw new UsageError("--redis is for --http, not --stdio");
  const http =
    !options.stdio &&
    (options.http ||
      options.port !== undefined ||
      options.host !== undefined ||
      auth !== undefined ||
      options.redis !== undefined);
  if (options.stdio && (options.port !== undefined || options.host !== undefined)) {
    throw new UsageError("--port and --host are for --http, not --stdio");
  }
  const port = portOf(options.port);
  checkRules("--allow", options.allow);
  checkRules("--deny", options.deny);
  const {
    proxy: proxyOptions,
    label,
    disabled,
    audit: configAudit,
  } = await upstreamOptions(operands, context.afterDashes, options);

  const exporter = otelExporterOf(options.otel);
  const tracing = exporter ? await startTracing(exporter) : undefined;
  let audit: AuditLog | undefined;
  const auditPath = options.audit ?? configAudit;
  if (auditPath !== undefined) {
    try {
      const key = options.auditKeyFile === undefined ? undefined : await readFile(options.auditKeyFile);
      audit = await AuditLog.open(auditPath, key === undefined ? {} : { key });
    } catch (error) {
      throw new UsageError(
        `${options.audit === undefined ? "the config's audit" : "--audit"}: ${describeError(error)}`,
      );
    }
  } else if (options.auditKeyFile !== undefined) {
    throw new UsageError("--audit-key-file is for an audit log: give --audit FILE (or audit in the config)");
  }
  let proxy: ProxyServer;
  try {
    proxy = await createProxyServer({
      ...proxyOptions,
      ...(audit ? { audit: audit.sink } : {}),
      ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      ...(options.verbose
        ? {
            onStderr: (server, line) => note(`[${peerText(server, "name")}] ${peerText(line, "message")}`),
          }
        : {}),
      // Warnings name what upstream servers sent (their tools, their errors).
      onWarning: (message) => note(`mcpkit: proxy: ${peerText(message, "text")}`),
      ...(tracing ? { clientOptions: { middleware: [tracing.client] } } : {}),
    });
  } catch (error) {
    await audit?.close();
    await tracing?.shutdown();
    throw new ConnectionError(`could not connect to ${label}: ${describeError(error)}`, { cause: error });
  }
  describeServers(proxy, disabled);
  if (tracing) {
    proxy.use(tracing.server);
    note(`mcpkit: proxy: tracing to ${tracing.destination}`);
  }

  // Listeners stay (`on`, not `once`): the stdio reaper re-raises a signal no one else listens to,
  // which would end the process before the upstreams and the audit log are closed.
  let stopping: Promise<void> | undefined;
  const stop = (closeListener: () => Promise<void>) => {
    stopping ??= closeListener()
      .then(() => proxy.close())
      .then(() => audit?.close())
      .then(() => tracing?.shutdown())
      .catch((error: unknown) => note(`mcpkit: proxy: ${describeError(error)}`))
      .finally(() => process.exit(0));
    return stopping;
  };
  if (!http) {
    const session = await proxy.serveStdio({ exitOnClose: false });
    session.peer.onClose(() => void stop(async () => {}));
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void stop(async () => {}));
    return;
  }
  warnIfReachable(options.host);
  let handle: Awaited<ReturnType<ProxyServer["serveHttp"]>>;
  let replication: Awaited<ReturnType<typeof replicationOf>>;
  try {
    replication = await replicationOf(options.redis);
    handle = await proxy.serveHttp({
      port,
      host: options.host,
      legacySse: true,
      ...(auth ? { auth } : {}),
      ...(replication ? { replication } : {}),
    });
  } catch (error) {
    // Nothing is served: stop the upstreams already started, then say why.
    await proxy.close().catch(() => {});
    await audit?.close();
    await replication?.close();
    throw listenError(error, options.host, port);
  }
  note(`mcpkit: proxy listening on ${handle.url}`);
  note(`mcpkit: legacy HTTP+SSE clients: ${new URL("/sse", handle.url).href}`);
  if (auth) noteProtected(auth.issuer, auth.resource ?? handle.url, auth.scopes);
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.on(signal, () => void stop(() => handle.close().then(() => replication?.close())));
}

/** Declares `proxy`. */
export function registerProxyCommand(program: Command, context: CliContext): Command {
  const command = program
    .command("proxy")
    .summary("Serve a server over another transport, or many servers as one")
    .usage("[options] (--config FILE | URL | -- command [args...])")
    .description(
      unwrap(`Forward an MCP server's tools (with progress and cancellation), resources, templates,
prompts and completion, following its list changes.

The upstream is one of:
  -- COMMAND [ARGS...]     a stdio server (serve it over HTTP with --http)
  URL                      an HTTP server (serve it over stdio, for clients
                           that only spawn servers)
  --config FILE [NAME...]  the servers of an mcpServers file, or the named
                           ones, as ONE server: tools are named server__tool,
                           prompts server__prompt

The proxy serves stdio unless --http (or --port, --host) is given. Over HTTP it prints
"mcpkit: proxy listening on http://…/mcp" on stderr; bound to a loopback address (the default) it
only accepts localhost Host and Origin headers. SIGINT or SIGTERM stops it, and every server it
started.

Tools can be filtered. In the config file, per server: "allowTools": ["read_*"] exposes only those,
"denyTools": ["write_file"] hides those. On the command line: --allow and --deny, repeatable, as
server/tool (or tool: that tool on every server), with * as a wildcard. Deny wins. A hidden tool
is neither listed nor callable (calling it answers error -32602).

A gateway config adds, beside "mcpServers": "policy" (rules per tool: "action": "allow" or "deny"
per "callers", "arguments" (a JSON Schema the arguments must also satisfy), "approval": true (a
person approves each call through elicitation)), "tools" (a "name", "description" or "title" per
server/tool) and "audit" (the log's path). "trusted": true in a server's entry makes its tool
annotations count; otherwise its hints are dropped. The format: the Gateway section of docs/proxy.md.

An upstream's sampling, elicitation and roots requests during a call go to the proxy's caller.

--audit FILE (or "audit" in the config) appends one JSON line per tool call (--audit - writes them
to stderr):
  {"seq":1,"time":"…","server":"fs","tool":"read_file","argsDigest":"<sha256>","outcome":"ok",
   "durationMs":12,"resultSize":342,"prev":"<sha256 of the line before>"}
argsDigest is the SHA-256 of the arguments' canonical JSON (sorted keys): the arguments themselves
are never written. outcome is ok, tool_error (isError), error (a protocol or connection error),
cancelled or denied (by the policy); with --auth-issuer, "subject" and "clientId" say who called.
The lines form a hash chain and FILE.head holds the count and last hash: mcpkit audit verify FILE
finds an edited, removed or cut line. --audit-key-file chains with HMAC-SHA256 under that key.

--auth-issuer, --auth-audience and --scopes require access tokens of the proxy's callers, as for
serve. The callers' tokens are never sent upstream: a URL upstream gets only its --header values.`),
    )
    .argument("[upstream...]", "a URL, or with --config the servers to serve (default all)")
    .option("--http", "serve Streamable HTTP (and legacy SSE at /sse)")
    .option("--stdio", "serve stdio (the default)")
    .option("--port <n>", "HTTP port (default 3000; 0 picks a free one; implies --http)")
    .option("--host <address>", "HTTP address to bind (default 127.0.0.1; implies --http)")
    .option("-c, --config <file>", "serve the servers of an mcpServers config file (mcp.json) as one")
    .option("--allow <server/tool>", "expose only the matching tools of that server (repeatable)", collect)
    .option("--deny <server/tool>", "never expose the matching tools (repeatable)", collect)
    .option("--audit <file>", "append a JSON line per tool call to the file (- for stderr)")
    .option("--audit-key-file <file>", "chain the audit log with HMAC-SHA256 under this key")
    .option("-H, --header <name:value>", "HTTP header to send to a URL upstream (repeatable)", collect)
    .addOption(
      new Option(
        "--transport <kind>",
        "transport to a URL upstream (default: Streamable HTTP, then SSE)",
      ).choices(HTTP_TRANSPORTS),
    )
    .option("-e, --env <KEY=VALUE>", "environment variable for a command upstream (repeatable)", collect)
    .addOption(
      new Option(
        "-t, --timeout <duration>",
        "time limit of each forwarded call (restarted by progress): 30s, 2m",
      ).argParser(parseDuration),
    )
    .option("--verbose", "print what stdio upstreams write to stderr")
    .option(
      "--otel [exporter]",
      "trace requests (OpenTelemetry): to OTLP/HTTP at OTEL_EXPORTER_OTLP_ENDPOINT, or --otel=console for stderr",
    );
  return redisOption(authOptions(command))
    .addHelpText(
      "after",
      examplesHelp([
        [
          "mcpkit proxy --http --port 3000 -- npx -y @modelcontextprotocol/server-everything",
          "a stdio server at http://127.0.0.1:3000/mcp",
        ],
        [
          "mcpkit proxy --stdio http://localhost:3000/mcp",
          "an HTTP server as a stdio server (the command for a client that only spawns)",
        ],
        [
          "mcpkit proxy --config mcp.json --http --port 3001 --audit audit.jsonl",
          "every server of mcp.json as one at http://127.0.0.1:3001/mcp, each call audited",
        ],
        [
          "mcpkit proxy --config mcp.json --deny 'fs/write_*' --deny fs/move_file",
          "the same over stdio, without the filesystem server's write tools",
        ],
        ["mcpkit tools -- mcpkit proxy --config mcp.json", "list the combined tools through the CLI itself"],
      ]),
    )
    .action(async (operands: string[], options: ProxyCliOptions) => {
      await run(operands, context, options);
    });
}
