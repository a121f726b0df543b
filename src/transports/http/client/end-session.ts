import type { HttpResponse } from "../shared/request.js";

/**
 * Ends the session with the `DELETE` that `send` makes, waiting at most `timeout` ms. Best effort:
 * a server that is gone or slow expires the session on its own.
 */
export async function endSession(
  send: (signal: AbortSignal) => Promise<HttpResponse>,
  timeout: number,
): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  try {
    (await send(controller.signal)).discard();
  } catch {
    // Best effort: the server expires the session on its own.
  } finally {
    clearTimeout(timer);
  }
}
