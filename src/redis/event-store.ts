import type { JSONRPCMessage } from "../jsonrpc/messages.js";
import type { EventStore, StreamedRequest } from "../server/sessions/stores.js";
import type { RedisConnection } from "./connection.js";
import type { ReplicaLease } from "./lease.js";

/** What is kept of a request's stream beside its events: its writer and its requests. */
interface StreamInfo {
  writer: string;
  requests: StreamedRequest[];
}

/** How often a stream another replica writes is read for a client resuming it here, in ms. */
const FOLLOW_INTERVAL = 100;

/** `<stream id>:<entry id>` (the priming event's entry is `0`). */
function parseEventId(eventId: string): { streamId: string; after: string } | undefined {
  const colon = eventId.lastIndexOf(":");
  if (colon <= 0) return undefined;
  const after = eventId.slice(colon + 1);
  return /^\d+(-\d+)?$/.test(after) ? { streamId: eventId.slice(0, colon), after } : undefined;
}

/**
 * SSE events in Redis Streams, one per SSE stream (`<prefix>events:<stream id>`), trimmed to about
 * `maxEventsPerStream` entries (`XADD MAXLEN ~`) and expiring `ttl` ms after its last event. Event
 * ids are `<stream id>:<entry id>`, so any replica can replay a stream another one wrote, and
 * follow one another one is still writing (polling it) until its end marker. Given the replica's
 * `lease`, a request's stream also keeps (`<prefix>stream:<stream id>`) its writer and requests,
 * so a replica following it ends it with the requests unanswered once the writer's lease lapsed.
 */
export class RedisEventStore implements EventStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
    private readonly ttl: number,
    private readonly maxEventsPerStream: number,
    private readonly lease?: ReplicaLease,
  ) {}

  open(streamId: string, requests: StreamedRequest[]): void {
    if (!this.lease || requests.length === 0) return;
    const info: StreamInfo = { writer: this.lease.replicaId, requests };
    this.redis
      .command(["SET", this.infoKey(streamId), JSON.stringify(info), "PX", String(this.ttl)])
      .catch(() => {});
  }

  async append(streamId: string, message: JSONRPCMessage): Promise<string> {
    const key = this.key(streamId);
    const [entry] = await Promise.all([
      this.redis.command<string>([
        "XADD",
        key,
        "MAXLEN",
        "~",
        String(this.maxEventsPerStream),
        "*",
        "m",
        JSON.stringify(message),
      ]),
      this.redis.command(["PEXPIRE", key, String(this.ttl)]),
      // A stream written longer than the ttl keeps what says who writes it.
      this.lease ? this.redis.command(["PEXPIRE", this.infoKey(streamId), String(this.ttl)]) : undefined,
    ]);
    return `${streamId}:${entry}`;
  }

  finish(streamId: string): void {
    const key = this.key(streamId);
    this.redis
      .command(["XADD", key, "MAXLEN", "~", String(this.maxEventsPerStream), "*", "end", "1"])
      .then(() => this.redis.command(["PEXPIRE", key, String(this.ttl)]))
      .catch(() => {});
  }

  follow(
    lastEventId: string,
    send: (eventId: string, message: JSONRPCMessage) => void,
    end: (unanswered?: StreamedRequest[]) => void,
  ): () => void {
    const parsed = parseEventId(lastEventId);
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const stop = () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
    if (!parsed) {
      queueMicrotask(end);
      return stop;
    }
    const { streamId } = parsed;
    let after = parsed.after;
    let quietSince = Date.now();
    let checkedAt = quietSince;
    /** Sends what came after `after`; whether the stream ended. */
    const take = async (): Promise<boolean> => {
      let entries: [string, string[]][];
      try {
        entries = await this.range(streamId, after);
      } catch {
        entries = [];
      }
      if (stopped) return true;
      for (const [entry, fields] of entries) {
        after = entry;
        if (fields.includes("end")) {
          stop();
          end();
          return true;
        }
        const at = fields.indexOf("m");
        if (at >= 0) send(`${streamId}:${entry}`, JSON.parse(fields[at + 1]!) as JSONRPCMessage);
      }
      if (entries.length > 0) quietSince = Date.now();
      return false;
    };
    const poll = async () => {
      timer = undefined;
      if (await take()) return;
      const now = Date.now();
      // Quiet a while: has its writer died? Then what it wrote last is read, and the stream ends.
      if (this.lease && now - Math.max(quietSince, checkedAt) >= this.lease.interval) {
        checkedAt = now;
        const unanswered = await this.abandoned(streamId);
        if (stopped) return;
        if (unanswered) {
          if (await take()) return;
          stop();
          end(unanswered);
          return;
        }
      }
      // Bounded: a stream silent this long (its writer gone) ends here; the client may come back.
      if (now - quietSince > this.ttl) {
        stop();
        end();
        return;
      }
      timer = setTimeout(() => void poll(), FOLLOW_INTERVAL);
      timer.unref();
    };
    void poll();
    return stop;
  }

  async replayAfter(
    lastEventId: string,
    send: (eventId: string, message: JSONRPCMessage) => void,
  ): Promise<string | undefined> {
    const parsed = parseEventId(lastEventId);
    if (!parsed) return undefined;
    for (const [entry, fields] of await this.range(parsed.streamId, parsed.after)) {
      const at = fields.indexOf("m");
      if (at >= 0) send(`${parsed.streamId}:${entry}`, JSON.parse(fields[at + 1]!) as JSONRPCMessage);
    }
    return parsed.streamId;
  }

  /** The requests of a stream whose writer's lease lapsed; `undefined` while it may be alive. */
  private async abandoned(streamId: string): Promise<StreamedRequest[] | undefined> {
    let info: StreamInfo;
    try {
      const text = await this.redis.command<string | null>(["GET", this.infoKey(streamId)]);
      if (text === null) return undefined;
      info = JSON.parse(text) as StreamInfo;
    } catch {
      return undefined;
    }
    return (await this.lease!.alive(info.writer)) === false ? info.requests : undefined;
  }

  /** The stream's entries after `after`, as many as a stream keeps. */
  private range(streamId: string, after: string): Promise<[string, string[]][]> {
    return this.redis.command<[string, string[]][]>([
      "XRANGE",
      this.key(streamId),
      `(${after}`,
      "+",
      "COUNT",
      String(this.maxEventsPerStream),
    ]);
  }

  private key(streamId: string): string {
    return `${this.prefix}events:${streamId}`;
  }

  private infoKey(streamId: string): string {
    return `${this.prefix}stream:${streamId}`;
  }
}
