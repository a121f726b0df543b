import { SseStream, type StreamEnd, type StreamHost } from "./stream.js";

/** How long opening the GET stream may hold back the messages sent after the handshake, in ms. */
const OPEN_WAIT = 5000;

/**
 * Follows the standalone GET stream, for what the server sends outside any request. `opened`
 * settles once the server answered the GET (or after 5 s, or when the stream ends), so the
 * messages sent after `notifications/initialized` wait for it and nothing the server sends in
 * between is lost; `ended` settles when the stream is over for good.
 */
export function followStandalone(
  host: StreamHost,
  signal: AbortSignal,
): { opened: Promise<void>; ended: Promise<StreamEnd> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const timer = setTimeout(open, OPEN_WAIT);
  const get = host.get;
  const watched: StreamHost = {
    ...host,
    get: async (lastEventId, getSignal) => {
      try {
        return await get(lastEventId, getSignal);
      } finally {
        clearTimeout(timer);
        open();
      }
    },
  };
  const ended = new SseStream(watched, signal).run(undefined).then((end) => {
    clearTimeout(timer);
    open();
    return end;
  });
  return { opened, ended };
}
