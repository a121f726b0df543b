import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { Peer } from "../../protocol/engine/peer.js";
import type { ClientCapabilities } from "../../protocol/types/lifecycle.js";
import type { ServerRequestGate } from "../channels/channel.js";

/** Answers a request the server sends for an extension (handshake era). */
export type ExtensionRequestHandler = (
  params: Record<string, unknown>,
  ctx: { signal: AbortSignal },
) => object | Promise<object>;

/**
 * An MCP extension, client side (SEP-1724): its id and settings, declared as
 * `capabilities.extensions[id]` in `initialize` and in every stateless request's `_meta`, and the
 * server notifications and requests it handles. Give extensions to the client with
 * `McpClient.connect({ …, extensions })`; `client.serverExtension(id)` tells whether the server
 * speaks one.
 */
export interface ClientExtension {
  /** The extension's id, such as `io.modelcontextprotocol/tasks`. */
  readonly id: string;
  /** What the client declares under `capabilities.extensions[id]`; default `{}`. */
  readonly settings?: object;
  /** Server notifications the extension handles, by method. */
  readonly notifications?: Readonly<Record<string, (params: Record<string, unknown>) => void>>;
  /**
   * Server requests the extension answers, by method: in a handshake session only, as the
   * server's sampling and elicitation requests are.
   */
  readonly requests?: Readonly<Record<string, ExtensionRequestHandler>>;
}

/** The capabilities with `extensions[id]` of every extension added; checks the extensions first. */
export function extensionCapabilities(
  extensions: readonly ClientExtension[],
  capabilities: ClientCapabilities,
): ClientCapabilities {
  if (extensions.length === 0) return capabilities;
  const declared: Record<string, object> = { ...capabilities.extensions };
  for (const extension of extensions) {
    const id = extension?.id;
    if (typeof id !== "string" || !/^[^\s/]+\/[^\s]+$/.test(id)) {
      throw new TypeError(
        `An extension needs an id of the form "vendor-prefix/name"; got ${JSON.stringify(id)}`,
      );
    }
    if (id in declared && extensions.filter((e) => e.id === id).length > 1) {
      throw new Error(`The extension ${id} is given twice`);
    }
    declared[id] = extension.settings ?? {};
  }
  return { ...capabilities, extensions: declared };
}

/** Installs the extensions' notification and request handlers on a client's engine. */
export function installExtensions(
  peer: Peer,
  extensions: readonly ClientExtension[],
  gate: ServerRequestGate,
): void {
  for (const extension of extensions) {
    for (const [method, handle] of Object.entries(extension.notifications ?? {})) {
      peer.setNotificationHandler(method, (params) => handle(params ?? {}));
    }
    for (const [method, handle] of Object.entries(extension.requests ?? {})) {
      peer.setRequestHandler(method, (params, request) => {
        if (!gate.open) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
        return handle(params ?? {}, { signal: request.signal });
      });
    }
  }
}
