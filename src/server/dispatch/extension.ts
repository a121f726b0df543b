import type { Revision } from "../../protocol/revisions/index.js";
import type { Era } from "../../protocol/revisions/revision.js";
import type { ServerCapabilities } from "../../protocol/types/lifecycle.js";
import type { Tool } from "../../protocol/types/tools.js";
import type { ToolTaskOptions } from "../registries/tool-config.js";
import type { TaskStatusSink } from "../sessions/subscriptions.js";
import type { DispatchHandler } from "./dispatch.js";
import type { ServerMiddleware } from "./middleware.js";

/** A method an extension adds to the server's dispatch table. */
export interface ExtensionMethod {
  readonly method: string;
  readonly handler: DispatchHandler;
  /**
   * The eras the method exists in; default both. Elsewhere it is unknown (-32601), as a method
   * removed from a revision is.
   */
  readonly eras?: readonly Era[];
}

/** What an extension's `setup` may use of the server it is installed on. */
export interface ExtensionHost {
  /** A registered tool as `tools/list` shows it (with `execution`, `_meta`…) and its task option. */
  tool(name: string): { description: Tool; task: ToolTaskOptions | undefined } | undefined;
  /**
   * Lets `subscriptions/listen` streams ask for `taskIds` (2026-07-28, SEP-2663) of a client that
   * declares `extension`; the extension reports each task's changes to the returned sink.
   */
  listenToTasks?(extension: string): TaskStatusSink;
}

/**
 * An MCP extension, server side (SEP-1724): an id, what it declares, the methods it adds and its
 * middleware of the methods it runs around. Give extensions to the server with `new McpServer(info, { extensions })`.
 *
 * Gating. In the stateless era (2026-07-28) a method of the extension is answered only when the
 * request's `_meta` client capabilities declare `extensions[id]`; otherwise -32021 naming the
 * extension in `data.requiredCapabilities`. In a handshake session the client declares it in
 * `initialize`, except for an extension with `legacyCapabilities` (a part of a revision's core,
 * as tasks are in 2025-11-25): its methods follow the session's revision table.
 */
export interface ServerExtension {
  /** The extension's id, such as `io.modelcontextprotocol/tasks`. */
  readonly id: string;
  /** What the server declares under `capabilities.extensions[id]`; default `{}`. */
  readonly settings?: object;
  /**
   * For an extension that a revision of the handshake era has in its core: the capabilities to
   * declare in `initialize` instead of `extensions[id]` (`undefined` where the revision lacks it).
   */
  legacyCapabilities?(revision: Revision): ServerCapabilities | undefined;
  /** The methods the extension answers. */
  readonly methods?: readonly ExtensionMethod[];
  /**
   * Whether its methods need the client's declaration of the extension; default true. False for
   * an extension the server alone declares (skills: a client calls `skills/list` on seeing the
   * server's entry).
   */
  readonly requiresClientDeclaration?: boolean;
  /**
   * Middleware of methods the server answers (`tools/call`…), by method. It runs at the
   * `extensions` place of `MIDDLEWARE_ORDER` (inside tracing, auth, policy and audit, outside
   * `server.use` middleware), outermost first in extension order, and sees incoming requests
   * only. It may replace `ctx.params` and `ctx.request` before `next()`, or answer without it.
   */
  readonly middleware?: Readonly<Record<string, ServerMiddleware>>;
  /** The notifications the extension sends: sessions send them whatever their revision's table says. */
  readonly notifications?: readonly string[];
  /**
   * The `_meta` keys the extension owns: those it reads from requests and writes into its results,
   * requests and notifications (the tasks extension: `io.modelcontextprotocol/related-task`). A
   * claim, checked when the server is built: each key has the form `prefix/name`, is not one of
   * the protocol's own (`io.modelcontextprotocol/protocolVersion`, `…/clientCapabilities`,
   * `…/clientInfo`, `…/logLevel`, `…/serverInfo`, `…/subscriptionId`), and is claimed by one
   * extension only; two extensions of one server cannot read one key in two ways. The keys do not
   * filter `_meta`: a handler sees all of it in `ctx.meta`.
   */
  readonly metaKeys?: readonly string[];
  /** Called once, when the server is built. */
  setup?(host: ExtensionHost): void;
  /** Called when the server closes: end what the extension runs of its own. */
  close?(): void | Promise<void>;
}
