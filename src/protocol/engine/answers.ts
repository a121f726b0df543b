/** What the engine answers with when a handler or a serializer fails, and the checks that decide it. */
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { JSONRPCErrorResponse, JSONRPCMessage, RequestId } from "../../jsonrpc/messages.js";

/** Whether sending failed because the connection is closed (rather than because of the message). */
export function isClosedError(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
}

/** What answers a request whose result (or error data) could not be serialized. */
export function unsendable(what: string, failure: unknown, original?: McpError): McpError {
  const why = failure instanceof Error ? failure.message : String(failure);
  const code = original?.code ?? ErrorCode.InternalError;
  const message = original
    ? `${original.message} (the ${what} could not be serialized: ${why})`
    : `The ${what} could not be serialized: ${why}`;
  return new McpError(code, message);
}

/** `response`, or the error response saying it cannot be serialized. */
export function serializable(response: JSONRPCMessage): JSONRPCMessage {
  try {
    JSON.stringify(response);
    return response;
  } catch (failure) {
    const { id, error } = response as { id?: RequestId; error?: { code: number; message: string } };
    const original = error ? new McpError(error.code, error.message) : undefined;
    const what = original ? "error's data" : "result";
    const answer: JSONRPCErrorResponse = {
      jsonrpc: "2.0",
      error: unsendable(what, failure, original).toJSON(),
    };
    if (id !== undefined) answer.id = id;
    return answer;
  }
}

/** A message without `method` that has a `result` or an `error`: meant as a response. */
export function looksLikeResponse(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    !("method" in value) &&
    ("result" in value || "error" in value)
  );
}

/** The error a failed handler answers with: an `McpError` as is, anything else as an internal error. */
export function toMcpError(error: unknown): McpError {
  if (error instanceof McpError) return error;
  let message: string;
  try {
    message = error instanceof Error ? error.message : String(error);
  } catch {
    // Thrown values can be anything, even objects that refuse to become text.
    message = "The handler failed with a value that cannot be shown";
  }
  return new McpError(ErrorCode.InternalError, message);
}
