import type { JSONRPCErrorObject } from "./messages.js";

/** JSON-RPC and MCP error codes. */
export const ErrorCode = {
  /** Invalid JSON was received. */
  ParseError: -32700,
  /** The JSON sent is not a valid request object. */
  InvalidRequest: -32600,
  /** The method does not exist or is not available. */
  MethodNotFound: -32601,
  /** Invalid method parameters. */
  InvalidParams: -32602,
  /** Internal error. */
  InternalError: -32603,
  /**
   * The start of JSON-RPC's range for implementation-defined server errors: what the HTTP
   * endpoints answer a refused request with (a bad header, an unknown session), beside its status.
   */
  ServerError: -32000,
  /** The connection closed before the response arrived (local, never sent; the SDKs' number). */
  ConnectionClosed: -32000,
  /** The request timed out (local, never sent). */
  RequestTimeout: -32001,
  /** A resource was not found (legacy revisions). */
  ResourceNotFound: -32002,
  /** The request was cancelled by the caller (local, never sent). */
  RequestCancelled: -32800,
  /** The server needs URL-mode elicitation before it can answer. */
  UrlElicitationRequired: -32042,
  /** 2026-07-28: an HTTP header disagrees with the body (or is missing). */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability the request did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the server does not speak the request's protocol version. */
  UnsupportedProtocolVersion: -32022,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The one error type of mcpkit: a JSON-RPC error with `code`, `message` and optional `data`.
 * Thrown by request methods when the peer answers with an error, and by handlers to answer with one.
 */
export class McpError extends Error {
  override readonly name = "McpError";
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.data = data;
  }

  /** The wire form of this error. */
  toJSON(): JSONRPCErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /** Rebuilds an error received on the wire. */
  static fromObject(error: JSONRPCErrorObject): McpError {
    return new McpError(error.code, error.message, error.data);
  }
}
