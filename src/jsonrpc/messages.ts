/** JSON-RPC 2.0 message shapes as MCP uses them (no batches: MCP removed them in 2025-06-18). */

/** A request id: MCP forbids `null` ids. */
export type RequestId = string | number;

/** A request: expects exactly one response with the same `id`. */
export interface JSONRPCRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

/** A notification: no `id`, no response. */
export interface JSONRPCNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}

/** A successful response. */
export interface JSONRPCResultResponse {
  jsonrpc: "2.0";
  id: RequestId;
  result: Record<string, unknown>;
}

/** The `error` member of an error response. */
export interface JSONRPCErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * An error response. Its `id` is `null` when the request's id could not be read (JSON-RPC 2.0 §5:
 * a parse error, or a message that is no valid request); some peers leave it out instead.
 */
export interface JSONRPCErrorResponse {
  jsonrpc: "2.0";
  id?: RequestId | null;
  error: JSONRPCErrorObject;
}

export type JSONRPCResponse = JSONRPCResultResponse | JSONRPCErrorResponse;
export type JSONRPCMessage = JSONRPCRequest | JSONRPCNotification | JSONRPCResponse;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A request id as MCP accepts it: a string, or an integer JSON numbers carry exactly. `1.5` is
 * not one, and integers beyond 2^53 would stand for one another once parsed.
 */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || Number.isSafeInteger(value);
}

export function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return "method" in message && "id" in message;
}

export function isNotification(message: JSONRPCMessage): message is JSONRPCNotification {
  return "method" in message && !("id" in message);
}

export function isResultResponse(message: JSONRPCMessage): message is JSONRPCResultResponse {
  return "result" in message;
}

export function isErrorResponse(message: JSONRPCMessage): message is JSONRPCErrorResponse {
  return "error" in message;
}

/**
 * Checks that a parsed JSON value is a JSON-RPC 2.0 message MCP accepts.
 * Returns `undefined` when it is, else a sentence saying what is wrong.
 * Only the envelope is checked: params and results belong to the method's handler.
 */
export function messageProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "a JSON-RPC message must be a JSON object";
  if (value.jsonrpc !== "2.0") return 'the "jsonrpc" member must be exactly "2.0"';
  const hasId = "id" in value;
  // A null id names no request: only an error response may carry it, answering an unreadable one.
  const unnamed =
    hasId && value.id === null && !("method" in value) && "error" in value && !("result" in value);
  if (hasId && !unnamed && !isRequestId(value.id))
    return 'the "id" member must be a string or a safe integer';
  if ("method" in value) {
    if (typeof value.method !== "string") return 'the "method" member must be a string';
    if ("params" in value && value.params !== undefined && !isObject(value.params)) {
      return 'the "params" member must be an object';
    }
    return undefined;
  }
  if ("result" in value) {
    if ("error" in value)
      return 'a response carries either "result" or "error", not both "result" and "error"';
    if (!hasId) return "a response must carry the request's id";
    if (!isObject(value.result)) return 'the "result" member must be an object';
    return undefined;
  }
  if ("error" in value) {
    const error = value.error;
    if (!isObject(error) || typeof error.code !== "number" || typeof error.message !== "string") {
      return 'the "error" member must be an object with a numeric "code" and a string "message"';
    }
    return undefined;
  }
  return 'a JSON-RPC message needs a "method", a "result" or an "error" member';
}
