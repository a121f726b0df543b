import { ErrorCode } from "../../../jsonrpc/errors.js";
import type { MessageParser } from "../../../jsonrpc/message-parser.js";
import {
  isRequestId,
  type JSONRPCMessage,
  messageProblem,
  type RequestId,
} from "../../../jsonrpc/messages.js";
import { batchedModernProblem } from "../../../protocol/eras/modern.js";
import { BodyTimeoutError, BodyTooLargeError, type HttpExchange } from "../shared/exchange.js";
import type { StreamableHttpOptions } from "./options.js";
import { reply } from "./replies.js";

/** The POST's JSON-RPC message (or batch, unchecked), or `undefined` after answering 413 or 400. */
export async function readMessage(
  exchange: HttpExchange,
  parser: MessageParser,
  limits: Pick<StreamableHttpOptions, "maxBodySize" | "bodyTimeout">,
): Promise<JSONRPCMessage | unknown[] | undefined> {
  let body: string;
  try {
    body = await exchange.readBody(limits.maxBodySize ?? 4 * 1024 * 1024, limits.bodyTimeout ?? 30_000);
  } catch (error) {
    if (error instanceof BodyTimeoutError) {
      reply(exchange, 408, ErrorCode.InvalidRequest, `Request Timeout: ${error.message}`, {
        connection: "close",
      });
      return undefined;
    }
    if (!(error instanceof BodyTooLargeError)) throw error;
    reply(exchange, 413, ErrorCode.InvalidRequest, `Payload Too Large: ${error.message}`);
    return undefined;
  }
  let value: unknown;
  try {
    value = parser.parse(body);
  } catch (error) {
    reply(exchange, 400, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`, undefined, null);
    return undefined;
  }
  if (Array.isArray(value)) return value;
  const problem = messageProblem(value);
  if (problem === undefined) return value as JSONRPCMessage;
  // An id that is not a valid one is not echoed: it could stand for another request's.
  const id = (value as { id?: unknown } | null)?.id;
  reply(
    exchange,
    400,
    ErrorCode.InvalidRequest,
    `Invalid request: ${problem}`,
    undefined,
    isRequestId(id) ? id : null,
  );
  return undefined;
}

/**
 * Why a batch cannot be served: empty, a malformed message, a request of the stateless era,
 * `initialize`, or an id used twice.
 */
export function batchProblem(batch: unknown[]): string | undefined {
  if (batch.length === 0) return "an empty batch";
  const ids = new Set<RequestId>();
  for (let i = 0; i < batch.length; i++) {
    const message = batch[i] as Record<string, unknown>;
    const problem = messageProblem(message) ?? batchedModernProblem(message as unknown as JSONRPCMessage);
    if (problem !== undefined) return `batch element ${i}: ${problem}`;
    if (message.method === "initialize") return "initialize must not be part of a batch";
    if ("method" in message && "id" in message) {
      if (ids.has(message.id as RequestId)) return `batch element ${i}: the id ${message.id} is used twice`;
      ids.add(message.id as RequestId);
    }
  }
  return undefined;
}
