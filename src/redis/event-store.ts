import type { JSONRPCMessage } from "../jsonrpc/messages.js";
import type { EventStore } from "../transports/http/server/event-store.js";
import type { RedisConnection } from "./connection.js";

/**
 * SSE events in Redis Streams, one per SSE stream (`<prefix>events:<stream id>`), trimmed to about
 * `maxEventsPerStream` entries (`XADD MAXLEN ~`) and expiring `ttl` ms after its last event. Event
 * ids are `<stream id>:<entry id>`, so any replica can replay a stream another one wrote.
 */
export class RedisEventStore implements EventStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
    private readonly ttl: number,
    private readonly maxEventsPerStream: number,
  ) {}

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
    ]);
    return `${streamId}:${entry}`;
  }

  async replayAfter(
    lastEventId: string,
    send: (eventId: string, message: JSONRPCMessage) => void,
  ): Promise<string | undefined> {
    const colon = lastEventId.lastIndexOf(":");
    if (colon <= 0) return undefined;
    const streamId = lastEventId.slice(0, colon);
    const after = lastEventId.slice(colon + 1);
    if (!/^\d+(-\d+)?$/.test(after)) return undefined;
    const entries = await this.redis.command<[string, string[]][]>([
      "XRANGE",
      this.key(streamId),
      `(${after}`,
      "+",
      "COUNT",
      String(this.maxEventsPerStream),
    ]);
    for (const [entry, fields] of entries) {
      const at = fields.indexOf("m");
      if (at >= 0) send(`${streamId}:${entry}`, JSON.parse(fields[at + 1]!) as JSONRPCMessage);
    }
    return streamId;
  }

  private key(streamId: string): string {
    return `${this.prefix}events:${streamId}`;
  }
}
