import type { JSONRPCMessage, RequestId } from "../../../jsonrpc/messages.js";
import { inertText } from "../../../util/inert-text.js";

/** A request whose answer a stream carries, as kept for a replica that resumes the stream. */
export interface StreamedRequest {
  /** The request's id, as the client gave it. */
  id: RequestId;
  /** What it asks: `tool <name>` for a tool call, else its method. */
  what: string;
}

/** The requests among a POST's messages, as an event store shared by replicas keeps them. */
export function streamedRequests(messages: JSONRPCMessage[]): StreamedRequest[] {
  const requests: StreamedRequest[] = [];
  for (const message of messages) {
    if (!("method" in message) || !("id" in message)) continue;
    const name = message.method === "tools/call" ? message.params?.name : undefined;
    const what = typeof name === "string" ? `tool ${name}` : `request ${message.method}`;
    requests.push({ id: message.id, what: inertText(what, { max: 200 }) });
  }
  return requests;
}

/**
 * Keeps the events of SSE streams so a client that lost a stream can resume it with
 * `Last-Event-ID`. Event ids must have the form `<stream id>:<position>`, so the session can check
 * that a stream is its own before anything is replayed; `replayAfter` returns the stream's id.
 */
export interface EventStore {
  /** Stores a message sent on a stream; returns its event id. */
  append(streamId: string, message: JSONRPCMessage): string | Promise<string>;
  /** Sends every event of the same stream after `lastEventId`, in order; `undefined` if unknown. */
  replayAfter(
    lastEventId: string,
    send: (eventId: string, message: JSONRPCMessage) => void,
  ): string | undefined | Promise<string | undefined>;
  /**
   * A request's stream opens here: a store shared by replicas keeps which requests it answers and
   * which replica writes it, so a replica resuming it can answer them should the writer die.
   */
  open?(streamId: string, requests: StreamedRequest[]): void;
  /** Marks a stream finished: no event comes after those appended. For `follow` on other replicas. */
  finish?(streamId: string): void;
  /**
   * A store shared by replicas: sends the stream's events after `lastEventId` as any replica
   * appends them, then calls `end` once the stream is finished (or the store gives up on it, after
   * a long silence); returns what stops it. A replica resumes there a stream another one writes.
   * `end` gets the stream's requests when its writer died before finishing it: nobody will answer them.
   */
  follow?(
    lastEventId: string,
    send: (eventId: string, message: JSONRPCMessage) => void,
    end: (unanswered?: StreamedRequest[]) => void,
  ): () => void;
}

/** An in-memory event store, bounded per stream and in the number of streams it keeps. */
export class MemoryEventStore implements EventStore {
  private readonly streams = new Map<
    string,
    { seq: number; events: { seq: number; message: JSONRPCMessage }[] }
  >();

  constructor(
    private readonly maxEventsPerStream = 1000,
    private readonly maxStreams = 10_000,
  ) {}

  append(streamId: string, message: JSONRPCMessage): string {
    let stream = this.streams.get(streamId);
    if (!stream) {
      if (this.streams.size >= this.maxStreams) {
        // Forget the oldest stream: Map keeps insertion order.
        this.streams.delete(this.streams.keys().next().value!);
      }
      stream = { seq: 0, events: [] };
      this.streams.set(streamId, stream);
    }
    const seq = ++stream.seq;
    stream.events.push({ seq, message });
    if (stream.events.length > this.maxEventsPerStream) stream.events.shift();
    return `${streamId}:${seq}`;
  }

  replayAfter(
    lastEventId: string,
    send: (eventId: string, message: JSONRPCMessage) => void,
  ): string | undefined {
    const colon = lastEventId.lastIndexOf(":");
    if (colon <= 0) return undefined;
    const streamId = lastEventId.slice(0, colon);
    const after = Number(lastEventId.slice(colon + 1));
    const stream = this.streams.get(streamId);
    if (!stream || !Number.isInteger(after)) return undefined;
    for (const event of stream.events) if (event.seq > after) send(`${streamId}:${event.seq}`, event.message);
    return streamId;
  }

  /** Forgets a stream that will not be resumed. */
  forget(streamId: string): void {
    this.streams.delete(streamId);
  }
}
