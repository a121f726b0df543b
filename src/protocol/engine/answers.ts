/** What the engine answers with when a handler, a message or a serializer fails, and how it sends it. */
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { FramingError } from "../../jsonrpc/framing.js";
import type { JSONRPCErrorResponse, JSONRPCMessage, RequestId } from "../../jsonrpc/messages.js";
import { isRequestId } from "../../jsonrpc/messages.js";
import type { Batch } from "./batch.js";
import type { IncomingRequest } from "./incoming.js";
import type { Peer } from "./peer.js";

/** Whether sending failed because the connection is closed (rather than because of the message). */
export function isClosedError(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
}

/** What answers a request whose result (or error data) could not be serialized. */
function unsendable(what: string, failure: unknown, original?: McpError): McpError {
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
function looksLikeResponse(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    !("method" in value) &&
    ("result" in value || "error" in value)
  );
}

/** The error a failed handler answers with: an `McpError` as is, anything else as an internal error. */
function toMcpError(error: unknown): McpError {
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

/** Sends a message nobody waits on (an error answer); a failure to send is reported, not thrown. */
function sendOrReport(peer: Peer, message: JSONRPCMessage): void {
  try {
    peer.send(message);
  } catch (error) {
    peer.onerror(error as Error);
  }
}

/** Sends a response; one the transport cannot write (too deep, a cycle, a BigInt) fails its request alone. */
export function sendAnswer(peer: Peer, response: JSONRPCMessage): void {
  try {
    peer.send(response);
  } catch (failure) {
    if (isClosedError(failure)) peer.onerror(failure as Error);
    else if ("result" in response) respondError(peer, response.id, unsendable("result", failure));
    else sendOrReport(peer, serializable(response));
  }
}

/** Answers request `id` with `error`, or adds that answer to its batch. */
export function respondError(peer: Peer, id: RequestId, error: McpError, batch?: Batch): void {
  if (peer.isClosed) return;
  if (batch) {
    batch.add({ jsonrpc: "2.0", id, error: error.toJSON() });
    return;
  }
  try {
    peer.send({ jsonrpc: "2.0", id, error: error.toJSON() });
  } catch (failure) {
    if (isClosedError(failure)) {
      peer.onerror(failure as Error);
      return;
    }
    // The error's data is what could not be written: its code and message can always be.
    sendOrReport(peer, { jsonrpc: "2.0", id, error: unsendable("error's data", failure, error).toJSON() });
  }
}

/** Answers a malformed message with -32600, or (a malformed response) reports it unanswered. */
export function answerInvalid(peer: Peer, value: unknown, problem: string, batch?: Batch): void {
  if (peer.isClosed) return;
  const id = (value as { id?: unknown } | null)?.id;
  if (looksLikeResponse(value)) {
    // Answering a response would start an exchange nobody asked for: it is dropped, and said.
    const which = isRequestId(id) ? ` to request ${id}` : "";
    peer.onerror(new McpError(ErrorCode.InvalidRequest, `Dropped a malformed response${which}: ${problem}`));
    return;
  }
  // An id that is not a valid one is not echoed: it could stand for another request's. JSON-RPC
  // answers what has no readable id with a null one.
  const error: JSONRPCErrorResponse = {
    jsonrpc: "2.0",
    id: isRequestId(id) ? id : null,
    error: { code: ErrorCode.InvalidRequest, message: `Invalid request: ${problem}` },
  };
  if (batch) batch.add(error);
  else sendOrReport(peer, error);
}

/** Answers input that is no message at all, with a null id: -32700 if it is not JSON, else -32600. */
export function answerFramingError(peer: Peer, error: FramingError): void {
  const code = error.kind === "parse" ? ErrorCode.ParseError : ErrorCode.InvalidRequest;
  const what = error.kind === "parse" ? "Parse error" : "Invalid request";
  sendOrReport(peer, { jsonrpc: "2.0", id: null, error: { code, message: `${what}: ${error.message}` } });
}

/** Answers a request its handler finished: with its result, or with the error it failed with. */
export function answerRequest(
  peer: Peer,
  request: IncomingRequest,
  result: object | undefined,
  error: unknown,
): void {
  const batch = request.batch;
  if (error !== undefined) {
    const failed = toMcpError(error);
    if (batch) batch.answered({ jsonrpc: "2.0", id: request.id, error: failed.toJSON() });
    else respondError(peer, request.id, failed);
    return;
  }
  const response = {
    jsonrpc: "2.0",
    id: request.id,
    result: (result ?? {}) as Record<string, unknown>,
  } as const;
  if (batch) batch.answered(response);
  else sendAnswer(peer, response);
}
