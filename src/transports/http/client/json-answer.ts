import { ErrorCode, McpError } from "../../../jsonrpc/errors.js";
import type { MessageParser } from "../../../jsonrpc/message-parser.js";
import type { RequestId } from "../../../jsonrpc/messages.js";
import type { HttpResponse } from "../shared/request.js";

/**
 * Reads a JSON answer to request `id`: its messages (one, or a batch's), and whether the response
 * to `id` is among them. A body past `maxMessageBytes` (`limit`) is refused unread.
 */
export async function jsonAnswer(
  id: RequestId,
  response: HttpResponse,
  parser: MessageParser,
  limit: number | undefined,
): Promise<{ messages: unknown[]; answered: boolean }> {
  const text = await jsonBody(id, response, limit);
  let body: unknown;
  try {
    body = parser.parse(text);
  } catch {
    throw new Error(`the server's JSON response is not JSON: ${text.slice(0, 200)}`);
  }
  const messages = Array.isArray(body) ? body : [body];
  const answered = messages.some(
    (message) =>
      typeof message === "object" && message !== null && !("method" in message) && message.id === id,
  );
  return { messages, answered };
}

/** The JSON answer to request `id`, as text: refused unread past `maxMessageBytes`. */
async function jsonBody(id: RequestId, response: HttpResponse, limit: number | undefined): Promise<string> {
  if (limit === undefined) return response.text();
  const tooLarge = (size: number) =>
    new McpError(
      ErrorCode.InternalError,
      `The server's response to request ${id} is ${size} bytes, more than maxMessageBytes (${limit}); it was skipped unread`,
      { size, maxMessageBytes: limit },
    );
  const declared = Number(response.header("content-length"));
  if (declared > limit) {
    response.discard();
    throw tooLarge(declared);
  }
  // Without a length, counted as it comes: past the limit the rest is read (the connection stays
  // reusable) but not kept.
  let text = "";
  let size = 0;
  await response.read((chunk) => {
    size += Buffer.byteLength(chunk);
    if (size <= limit) text += chunk;
  });
  if (size > limit) throw tooLarge(size);
  return text;
}
