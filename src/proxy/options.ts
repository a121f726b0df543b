/** Options every proxy takes, whichever upstreams it serves. */

import type { CommonClientOptions, HttpClientOptions } from "../client/connect/options.js";
import type { MultiServerOptions } from "../client/multi/options.js";
import type { ReconnectPolicy } from "../client/multi/reconnect.js";
import type { ServerInfo, ServerOptions } from "../server/server.js";
import type { StdioServerParameters } from "../transports/stdio/client.js";
import type { AccessRule } from "./access.js";
import type { AuditSink } from "./audit.js";
import { type UpstreamAuth, upstreamHeaders } from "./caller.js";
import type { ToolRule } from "./filter.js";
import { maxResponseBytes, type UpstreamLimits } from "./limits.js";
import type { ToolCallMiddleware } from "./middleware.js";
import type { ToolOverride } from "./overrides.js";
import type { PolicyRule } from "./policy.js";
import type { ForwardedCalls } from "./questions.js";
import type { ProxyTasksOptions } from "./tasks.js";

/** What a config file adds to a gateway: its policy rules and tool overrides. */
export interface GatewaySettings {
  policy: readonly PolicyRule[];
  tools: Record<string, ToolOverride>;
}

export interface ProxyCommonOptions extends UpstreamLimits {
  /**
   * Expose only the tools these rules match: `"tool"` (on any server) or `"server/tool"`, `*` as a
   * wildcard. A server no rule names (and whose entry has no `allowTools`) keeps all its tools.
   */
  allow?: readonly ToolRule[];
  /** Never expose the tools these rules match (same forms as `allow`); deny wins over allow. */
  deny?: readonly ToolRule[];
  /**
   * Which verified callers may use which tools (by scope or subject), when the proxy's front takes
   * tokens (`proxy.serveHttp({ auth })`); on top of `allow` and `deny`.
   */
  access?: readonly AccessRule[];
  /**
   * How the proxy authenticates to its HTTP upstreams, per request: its own token, or one exchanged
   * for the caller's. Without it only an entry's own `headers` are sent. The caller's token is never
   * forwarded.
   */
  upstreamAuth?: UpstreamAuth;
  /**
   * The gateway's rules per tool: allow and deny per caller, argument constraints, approval by a
   * person (see `PolicyRule`). A config file's `policy` comes first, then these.
   */
  policy?: readonly PolicyRule[];
  /**
   * How tools are shown, by `"server/tool"` or `"tool"`: another `name`, `description` or `title`.
   * A config file's `tools` are merged under these.
   */
  tools?: Record<string, ToolOverride>;
  /** `(ctx, next)` steps of every tool call, run after the audit, access and policy steps. */
  middleware?: readonly ToolCallMiddleware[];
  /**
   * How long a stateless (2026-07-28) caller may take to answer an upstream's question before the
   * upstream call is cancelled, in ms; default 10 minutes (the life of a `requestState`).
   */
  inputTimeout?: number;
  /**
   * The proxy's own tasks, which follow the upstreams' (a tool an upstream runs as a task runs as
   * one of the proxy's too), or `false` for none: every call is then answered inline.
   */
  tasks?: ProxyTasksOptions | false;
  /** Receives one record per tool call; the answer waits for it. See `AuditLog`. */
  audit?: AuditSink;
  /** Who the proxy says it is; default the upstream's own info (bridge) or `mcpkit-proxy` (config). */
  serverInfo?: ServerInfo;
  /** Options of the `McpServer` the proxy is. */
  server?: ServerOptions;
  /** Per-call timeout towards the upstreams, in ms, restarted by progress; default 60 s (or the entry's `timeout`). */
  timeout?: number;
  /** How long each upstream may take to start and answer its first lists, in ms; default 30 000. */
  connectTimeout?: number;
  /** How lost upstreams are reconnected (exponential backoff by default), or `false` for never. */
  reconnect?: ReconnectPolicy | false;
  /** Client options towards every upstream (`clientInfo`, `protocolVersion`, …). */
  clientOptions?: CommonClientOptions;
  /** Each line a stdio upstream writes to stderr (drained and dropped otherwise). */
  onStderr?: (server: string, line: string) => void;
  /** Something left out or failing that is worth a log line (a tool that cannot be registered, an audit failure…). */
  onWarning?: (message: string) => void;
}

/** The `MultiServerClient` options for a proxy's upstreams; `label` names a server as rules do. */
export function multiOptions(
  options: ProxyCommonOptions,
  label: (server: string) => string,
  calls: ForwardedCalls,
): MultiServerOptions {
  // An upstream's response over maxResultSize is refused as it arrives, never parsed: the options
  // reach the stdio transport and the HTTP client (`maxMessageBytes` of both) from here.
  const maxMessageBytes = maxResponseBytes(options);
  // Each upstream's sampling, elicitation and roots requests go to the caller of their call.
  const multi: MultiServerOptions = {
    clientOptions: (server) => {
      const client: CommonClientOptions & Pick<HttpClientOptions & StdioServerParameters, "maxMessageBytes"> =
        {
          ...calls.features(server),
          maxMessageBytes,
          ...options.clientOptions,
        };
      return client;
    },
  };
  if (options.upstreamAuth) multi.requestHeaders = upstreamHeaders(options.upstreamAuth, label);
  if (options.timeout !== undefined) multi.timeout = options.timeout;
  if (options.connectTimeout !== undefined) multi.connectTimeout = options.connectTimeout;
  if (options.reconnect !== undefined) multi.reconnect = options.reconnect;
  if (options.onStderr) multi.onStderr = options.onStderr;
  return multi;
}
