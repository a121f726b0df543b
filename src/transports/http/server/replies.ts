import type { McpError } from "../../../jsonrpc/errors.js";
import { ErrorCode } from "../../../jsonrpc/errors.js";
import type { RequestId } from "../../../jsonrpc/messages.js";
import type { HttpRefusal } from "../shared/authenticate.js";
import type { HttpExchange } from "../shared/exchange.js";

/** A check a request must pass before its body is read, and the answer when it does not. */
interface RequestRule {
  readonly status: number;
  readonly message: string;
  fails(exchange: HttpExchange): boolean;
}

const accepts = (accept: string, type: string): boolean => accept.includes(type) || accept.includes("*/*");

/** `application/json`, with parameters or not, in any case. */
const JSON_TYPE = /^application\/json\s*(;|$)/i;

/** A header that may be sent once: a repeat could make two readers of the request disagree. */
const once = (name: string, status: number, display: string): RequestRule => ({
  status,
  message: `${status === 415 ? "Unsupported Media Type" : "Bad Request"}: the ${display} header is repeated`,
  fails: (exchange) => exchange.headerCount(name) > 1,
});

const SINGLE_HEADERS: readonly RequestRule[] = [
  once("content-type", 415, "Content-Type"),
  once("mcp-session-id", 400, "Mcp-Session-Id"),
  once("mcp-protocol-version", 400, "MCP-Protocol-Version"),
  once("mcp-method", 400, "Mcp-Method"),
];

/** What a POST to the endpoint must say of itself. */
export const POST_RULES: readonly RequestRule[] = [
  ...SINGLE_HEADERS,
  {
    status: 406,
    message: "Not Acceptable: Accept must list application/json and text/event-stream",
    fails: (exchange) => {
      const accept = exchange.header("accept") ?? "";
      return !accepts(accept, "application/json") || !accepts(accept, "text/event-stream");
    },
  },
  {
    status: 415,
    message: "Unsupported Media Type: Content-Type must be application/json",
    fails: (exchange) => {
      const type = exchange.header("content-type") ?? "";
      // What clients send, spared the expression.
      return type !== "application/json" && !JSON_TYPE.test(type);
    },
  },
];

/** What a DELETE of a session must say of itself. */
export const DELETE_RULES: readonly RequestRule[] = SINGLE_HEADERS;

/** What a GET of the endpoint's stream must say of itself. */
export const GET_RULES: readonly RequestRule[] = [
  ...SINGLE_HEADERS,
  {
    status: 406,
    message: "Not Acceptable: Accept must list text/event-stream",
    fails: (exchange) => !accepts(exchange.header("accept") ?? "", "text/event-stream"),
  },
];

/** Answers the first rule the request fails; whether it failed one. */
export function refused(exchange: HttpExchange, rules: readonly RequestRule[]): boolean {
  for (const rule of rules) {
    if (!rule.fails(exchange)) continue;
    reply(exchange, rule.status, ErrorCode.ServerError, rule.message);
    return true;
  }
  return false;
}

/**
 * Answers with a JSON-RPC error body; without a request id unless one is given. `null` answers a
 * message whose id could not be read (JSON-RPC 2.0 §5), as a parse error or an invalid request.
 */
export function reply(
  exchange: HttpExchange,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id?: RequestId | null,
): void {
  const body: Record<string, unknown> = { jsonrpc: "2.0", error: { code, message } };
  if (id !== undefined) body.id = id;
  exchange.respond(status, { "content-type": "application/json", ...headers }, JSON.stringify(body));
}

/** Answers a request with an error response and an HTTP status. */
export function replyError(exchange: HttpExchange, status: number, error: McpError, id: RequestId): void {
  const body = JSON.stringify({ jsonrpc: "2.0", id, error: error.toJSON() });
  exchange.respond(status, { "content-type": "application/json" }, body);
}

export function unsupportedHeader(version: string, supported: readonly string[]): string {
  return `Bad Request: unsupported MCP-Protocol-Version ${version} (supported: ${supported.join(", ")})`;
}

/** Answers a request whose credentials fall short (401, 403, 400). */
export function refuse(exchange: HttpExchange, refusal: HttpRefusal, id?: RequestId): void {
  reply(exchange, refusal.status, ErrorCode.ServerError, refusal.message, { ...refusal.headers }, id);
}

/** GET and DELETE of an endpoint that keeps no sessions. */
export function noSessions(exchange: HttpExchange): void {
  reply(exchange, 405, ErrorCode.ServerError, "Method not allowed: this server keeps no sessions", {
    allow: "POST",
  });
}
