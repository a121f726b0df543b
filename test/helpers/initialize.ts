/**
 * The handshake a raw client sends (2025-11-25 and older): tests that speak the wire themselves,
 * over HTTP bytes or a child's stdin, build it here rather than writing the literal again.
 */

/** What an `initialize` request may change; each has a default a plain raw client would send. */
export interface InitializeOptions {
  /** The JSON-RPC id; default 1. */
  id?: string | number;
  /** Default 2025-11-25. */
  protocolVersion?: string;
  /** The client's capabilities; default none. */
  capabilities?: Record<string, unknown>;
  /** Default `{ name: "raw", version: "1" }`. */
  clientInfo?: { name: string; version: string };
}

/** The `params` of an `initialize` request. */
export function initializeParams({
  protocolVersion = "2025-11-25",
  capabilities = {},
  clientInfo = { name: "raw", version: "1" },
}: InitializeOptions = {}) {
  return { protocolVersion, capabilities, clientInfo };
}

/** An `initialize` request, as a JSON-RPC message object (`JSON.stringify` it for a body). */
export function initializeRequest(options: InitializeOptions = {}) {
  return {
    jsonrpc: "2.0",
    id: options.id ?? 1,
    method: "initialize",
    params: initializeParams(options),
  } as const;
}

/** The notification that ends the handshake. */
export const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" } as const;
