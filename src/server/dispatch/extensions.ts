import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { META } from "../../protocol/eras/request-meta.js";
import { declaresExtension, missingExtension } from "../../protocol/extensions.js";
import type { Revision } from "../../protocol/revisions/index.js";
import type { ServerCapabilities } from "../../protocol/types/lifecycle.js";
import type { RequestContext } from "../sessions/context.js";
import { type DispatchHandler, type DispatchRow, row } from "./dispatch.js";
import type { ExtensionHost, ExtensionMethod, ServerExtension } from "./extension.js";
import type { ServerMiddleware } from "./middleware.js";
import type { MiddlewareDeclaration } from "./order.js";

/** Where the extensions' middleware runs, and what it sees. */
export const EXTENSION_PLACE: MiddlewareDeclaration = { place: "extensions", directions: ["incoming"] };

/**
 * The extensions of one server: checked once, at construction, then folded into the dispatch
 * table (their methods as rows), the server's middleware (theirs, at `EXTENSION_PLACE`) and the
 * capabilities the server declares.
 */
export class ServerExtensions {
  /** Every method some extension adds. */
  private readonly methods = new Set<string>();
  /** Every notification some extension sends. */
  private readonly notifications = new Set<string>();

  constructor(
    private readonly list: readonly ServerExtension[],
    host: ExtensionHost,
  ) {
    const ids = new Set<string>();
    /** Each `_meta` key an extension claims, and which one does. */
    const metaKeys = new Map<string, string>();
    for (const extension of list) {
      const id = extension?.id;
      if (typeof id !== "string" || !/^[^\s/]+\/[^\s]+$/.test(id)) {
        throw new TypeError(
          `An extension needs an id of the form "vendor-prefix/name"; got ${JSON.stringify(id)}`,
        );
      }
      if (ids.has(id)) throw new Error(`The extension ${id} is given twice`);
      ids.add(id);
      for (const { method } of extension.methods ?? []) {
        if (this.methods.has(method)) throw new Error(`Two extensions add the method ${method}`);
        this.methods.add(method);
      }
      for (const notification of extension.notifications ?? []) this.notifications.add(notification);
      for (const key of extension.metaKeys ?? []) claim(metaKeys, key, id);
    }
    for (const extension of list) extension.setup?.(host);
  }

  /** Whether `method` is a request or notification an extension adds. */
  adds(method: string): boolean {
    return this.methods.has(method) || this.notifications.has(method);
  }

  /** The server's table with the extensions' rows added. */
  extend(table: readonly DispatchRow[]): DispatchRow[] {
    const rows = [...table];
    if (this.list.length === 0) return rows;
    const core = new Set(table.map((entry) => entry.method));
    for (const extension of this.list) {
      for (const method of extension.methods ?? []) {
        if (core.has(method.method)) {
          throw new Error(
            `The extension ${extension.id} adds ${method.method}, which the server answers itself`,
          );
        }
        rows.push(row(method.method, undefined, gated(extension, method)));
      }
    }
    return rows;
  }

  /** Adds `extensions[id]` of every extension to what the server declares (2026-07-28 form). */
  declare(capabilities: ServerCapabilities): void {
    if (this.list.length === 0) return;
    const extensions: Record<string, object> = { ...capabilities.extensions };
    for (const extension of this.list) extensions[extension.id] = extension.settings ?? {};
    capabilities.extensions = extensions;
  }

  /**
   * The capabilities of a handshake session on `revision`: an extension a revision has in its
   * core is declared as that revision declares it, not under `extensions`.
   */
  forHandshake(capabilities: ServerCapabilities, revision: Revision): ServerCapabilities {
    const core = this.list.filter((extension) => extension.legacyCapabilities);
    if (core.length === 0) return capabilities;
    const result: ServerCapabilities = { ...capabilities };
    const extensions: Record<string, object> = { ...capabilities.extensions };
    for (const extension of core) {
      delete extensions[extension.id];
      Object.assign(result, extension.legacyCapabilities!(revision));
    }
    if (Object.keys(extensions).length > 0) result.extensions = extensions;
    else delete result.extensions;
    return result;
  }

  /** Closes every extension. */
  async close(): Promise<void> {
    await Promise.all(this.list.map((extension) => extension.close?.()));
  }

  /** The extensions' middleware by method, in extension order: the first outermost. */
  middleware(): [method: string, middleware: ServerMiddleware][] {
    return this.list.flatMap((extension) => Object.entries(extension.middleware ?? {}));
  }
}

/** The `_meta` keys the protocol itself reads and writes (2026-07-28): no extension may claim them. */
const PROTOCOL_META_KEYS: ReadonlySet<string> = new Set(Object.values(META));

/** Records that extension `id` owns the `_meta` key `key`, or says why it cannot. */
function claim(claimed: Map<string, string>, key: unknown, id: string): void {
  if (typeof key !== "string" || !/^[^\s/]+\/[^\s]+$/.test(key)) {
    throw new TypeError(
      `The extension ${id} names the _meta key ${JSON.stringify(key)}: a key of the form "prefix/name" is needed`,
    );
  }
  if (PROTOCOL_META_KEYS.has(key)) {
    throw new Error(`The extension ${id} claims the _meta key ${key}, which the protocol itself uses`);
  }
  const other = claimed.get(key);
  if (other !== undefined) throw new Error(`Two extensions claim the _meta key ${key}: ${other} and ${id}`);
  claimed.set(key, id);
}

/** An extension method's handler behind its era and declaration checks. */
function gated(extension: ServerExtension, { method, handler, eras }: ExtensionMethod): DispatchHandler {
  return (params: Record<string, unknown>, ctx: RequestContext) => {
    const stateless = ctx.request.requestMeta !== undefined;
    const era = stateless ? "modern" : "legacy";
    if (eras && !eras.includes(era)) throw unknown(method, `not in the ${era} form of ${extension.id}`);
    if (stateless || !extension.legacyCapabilities) {
      if (
        extension.requiresClientDeclaration !== false &&
        !declaresExtension(ctx.clientCapabilities, extension.id)
      )
        throw missingExtension(extension.id, method);
    } else {
      const revision = ctx.session.revision;
      if (!revision?.clientRequests.has(method) || !extension.legacyCapabilities(revision)) {
        throw unknown(method, `not in protocol ${revision?.version ?? "(none)"}`);
      }
    }
    return handler(params, ctx);
  };
}

function unknown(method: string, why: string): McpError {
  return new McpError(ErrorCode.MethodNotFound, `Method not found: ${method} (${why})`);
}
