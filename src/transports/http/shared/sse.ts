/** Server-Sent Events, both ways: a streaming parser and the event writer (WHATWG HTML §9.2). */

/** One dispatched event. */
export interface SseEvent {
  /** The `event:` field; "message" when absent. */
  event: string;
  data: string;
  /** The `id:` field of this event, if it had one. */
  id?: string;
  /** A `retry:` field seen with this event, in ms. */
  retry?: number;
}

/**
 * Parses an event stream from arbitrary chunks. Handles `\n`, `\r\n` and `\r` line endings,
 * comments, multi-line data and a BOM; an event is dispatched at its blank line.
 */
export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private event = "";
  private id: string | undefined;
  private retry: number | undefined;
  private first = true;
  /** The last event id seen, for `Last-Event-ID` on reconnection. */
  lastEventId: string | undefined;

  constructor(private readonly onEvent: (event: SseEvent) => void) {}

  push(chunk: string): void {
    let text = this.buffer + chunk;
    if (this.first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      this.first = false;
    }
    let start = 0;
    for (;;) {
      const lf = text.indexOf("\n", start);
      const cr = text.indexOf("\r", start);
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        // A lone \r at the end may be the first half of \r\n: wait for more.
        if (cr === text.length - 1) break;
        end = cr;
        next = text[cr + 1] === "\n" ? cr + 2 : cr + 1;
      } else if (lf !== -1) {
        end = lf;
        next = lf + 1;
      } else {
        break;
      }
      this.line(text.slice(start, end));
      start = next;
    }
    this.buffer = text.slice(start);
  }

  private line(line: string): void {
    if (line.length === 0) {
      this.dispatch();
      return;
    }
    if (line.charCodeAt(0) === 58 /* ":" */) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case "data":
        this.data.push(value);
        break;
      case "event":
        this.event = value;
        break;
      case "id":
        if (!value.includes("\0")) this.id = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
    }
  }

  private dispatch(): void {
    if (this.id !== undefined) this.lastEventId = this.id;
    const retry = this.retry;
    if (this.data.length === 0) {
      // An event without data dispatches nothing, but its id and retry still count.
      if (retry !== undefined || this.id !== undefined) {
        this.onEvent({ event: "", data: "", id: this.id, retry });
      }
    } else {
      this.onEvent({ event: this.event || "message", data: this.data.join("\n"), id: this.id, retry });
    }
    this.data = [];
    this.event = "";
    this.id = undefined;
    this.retry = undefined;
  }
}

/** Formats one event; `data` may span lines. */
export function formatSseEvent(event: { event?: string; data: string; id?: string; retry?: number }): string {
  let out = "";
  if (event.id !== undefined) out += `id: ${event.id}\n`;
  if (event.event !== undefined && event.event !== "message") out += `event: ${event.event}\n`;
  if (event.retry !== undefined) out += `retry: ${event.retry}\n`;
  out += event.data.includes("\n")
    ? `data: ${event.data.split("\n").join("\ndata: ")}\n\n`
    : `data: ${event.data}\n\n`;
  return out;
}
