import { ErrorCode, McpError } from "../../../jsonrpc/errors.js";
import { bodyExcerpt, type HttpResponse } from "./request.js";

/**
 * The JSON-RPC error code of a request that failed because the server no longer knows the
 * session: HTTP 404 to a request that carried `Mcp-Session-Id`. It is `-32000` (the code mcpkit
 * uses for a connection that is gone); what sets it apart is `data.sessionExpired === true`, so test
 * with `isSessionExpired(error)`. The client should call `resetSession()` on the transport,
 * initialize again, and retry.
 */
export const SESSION_EXPIRED_CODE = ErrorCode.ConnectionClosed;

/** The `data` of a session-expired error. */
export interface SessionExpiredData {
  sessionExpired: true;
  httpStatus: 404;
}

/** Whether `error` (an `McpError` or its wire form) says the HTTP session expired. */
export function isSessionExpired(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, data } = error as { code?: unknown; data?: unknown };
  return (
    code === SESSION_EXPIRED_CODE &&
    typeof data === "object" &&
    data !== null &&
    (data as { sessionExpired?: unknown }).sessionExpired === true
  );
}

/** The error for a session the server no longer knows. */
function sessionExpiredError(what: string): McpError {
  const data: SessionExpiredData = { sessionExpired: true, httpStatus: 404 };
  return new McpError(
    SESSION_EXPIRED_CODE,
    `${what}: HTTP 404, the server no longer knows this session (it expired or was terminated); initialize a new one`,
    data,
  );
}

/**
 * The error for an HTTP response that is not a success: the status and the start of the body.
 * `what` names the exchange, e.g. "POST http://host/mcp". A 404 to a request that carried a session
 * id is a session-expired error.
 */
export async function httpStatusError(
  response: HttpResponse,
  what: string,
  sentSessionId: boolean,
): Promise<McpError> {
  let body = "";
  try {
    body = await response.text();
  } catch {
    // the status says enough
  }
  if (response.status === 404 && sentSessionId) return sessionExpiredError(what);
  // A JSON-RPC error in the body (as 2026-07-28 servers send with 400 and 404) keeps its code and data.
  const rpc = jsonRpcError(body);
  if (rpc) {
    const data =
      rpc.data === undefined ||
      (typeof rpc.data === "object" && rpc.data !== null && !Array.isArray(rpc.data))
        ? { ...(rpc.data as object | undefined), httpStatus: response.status }
        : rpc.data;
    return new McpError(rpc.code, rpc.message, data);
  }
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  const location = response.status >= 300 && response.status < 400 ? response.header("location") : undefined;
  const excerpt = location ? `redirects to ${location} (redirects are not followed)` : bodyExcerpt(body);
  return new McpError(ErrorCode.InternalError, `${what} failed: ${status}${excerpt ? `: ${excerpt}` : ""}`, {
    httpStatus: response.status,
  });
}

function jsonRpcError(body: string): { code: number; message: string; data?: unknown } | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
    const error = parsed?.error;
    if (typeof error?.code === "number" && typeof error.message === "string") {
      return { code: error.code, message: error.message, data: error.data };
    }
  } catch {
    // not JSON: the excerpt says what it was
  }
  return undefined;
}

/** Any failure as an `McpError`, the message prefixed with what was being done. */
export function transportError(error: unknown, what: string): McpError {
  if (error instanceof McpError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const detail = typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message;
  return new McpError(ErrorCode.InternalError, `${what} failed: ${detail}`, undefined, { cause: error });
}
