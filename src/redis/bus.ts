import { randomBytes } from "node:crypto";
import type { MessageBus } from "../server/sessions/stores.js";
import type { RedisConnection } from "./connection.js";

/** Messages between replicas on Redis pub/sub, channels named `<prefix><channel>`. */
export class RedisMessageBus implements MessageBus {
  readonly replicaId = randomBytes(6).toString("base64url");

  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
  ) {}

  publish(channel: string, message: string): Promise<number> {
    return this.redis.command<number>(["PUBLISH", this.prefix + channel, message]);
  }

  subscribe(channel: string, listener: (message: string) => void): Promise<() => void> {
    return this.redis.subscribe(this.prefix + channel, listener);
  }
}
