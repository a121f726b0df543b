import type { McpError } from "../../jsonrpc/errors.js";
import type { JSONRPCMessage, JSONRPCRequest } from "../../jsonrpc/messages.js";
import type { RequestMeta } from "../types/lifecycle.js";
import type { IncomingRequest } from "./incoming.js";

/** Default time a request may take before it is abandoned. */
export const DEFAULT_REQUEST_TIMEOUT = 60_000;

/** Answers one request; returns the result or throws (an `McpError` keeps its code). */
export type RequestHandler = (
  params: Record<string, unknown>,
  request: IncomingRequest,
) => object | Promise<object>;

/** Handles one notification. */
export type NotificationHandler = (params: Record<string, unknown>) => void;

/** Sees every message as it is sent or received, for logging and tests. */
export type MessageTrace = (direction: "send" | "receive", message: JSONRPCMessage) => void;

export interface PeerOptions {
  /** Default per-request timeout in milliseconds (60 s). */
  requestTimeout?: number;
  /** Sees every message sent and received. */
  trace?: MessageTrace;
  /**
   * Called for each request before its handler, with the `_meta` its transport already read: an
   * error returned refuses the request; a `RequestMeta` returned admits it as a stateless request
   * of that sender, and travels on the `IncomingRequest`.
   */
  guard?: (request: JSONRPCRequest, meta: RequestMeta | undefined) => McpError | RequestMeta | undefined;
}
