/** Raw Streamable HTTP for the replica tests: a session opened by hand, and SSE read as it comes. */
import { parseSse } from "../../helpers/http-sdk-clients.js";
import { INITIALIZED, initializeRequest } from "../../helpers/initialize.js";

export type Event = { id?: string; data?: Record<string, any> };

export const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
};

/** Opens an initialized 2025-11-25 session at `url`; returns the headers its requests carry. */
export async function openSession(url: string): Promise<Record<string, string>> {
  const init = await fetch(url, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify(initializeRequest({ id: 0 })),
  });
  await init.text();
  const headers = { ...HEADERS, "mcp-session-id": init.headers.get("mcp-session-id")! };
  const sent = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify(INITIALIZED),
  });
  await sent.text();
  return headers;
}

/**
 * Reads an SSE response's events as they come, calling `onEvent` with each; resolves with all of
 * them when the stream ends (or breaks: a killed server).
 */
export async function readEvents(
  response: Response,
  onEvent: (event: Event) => void = () => {},
  /** Stops reading when aborted. */
  stop?: AbortSignal,
): Promise<Event[]> {
  const events: Event[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = response.body!.getReader();
  stop?.addEventListener("abort", () => void reader.cancel().catch(() => {}), { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const end = buffer.lastIndexOf("\n\n");
      if (end < 0) continue;
      for (const event of parseSse(buffer.slice(0, end + 2))) {
        events.push(event);
        onEvent(event);
      }
      buffer = buffer.slice(end + 2);
    }
  } catch {
    // The connection broke.
  }
  return events;
}
