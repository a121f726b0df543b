import type { SessionRecord, SessionStore } from "../server/sessions/stores.js";
import type { RedisConnection } from "./connection.js";

/**
 * Sessions in Redis: one hash per session (`<prefix>session:<id>`: `open`, the principal, the
 * server's state as JSON) that expires after the idle timeout, restarted by use on any replica.
 */
export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
    readonly idleTimeout: number,
  ) {}

  async create(sessionId: string, principal: string | undefined): Promise<void> {
    const key = this.key(sessionId);
    const fields = principal === undefined ? ["open", "1"] : ["open", "1", "principal", principal];
    await Promise.all([
      this.redis.command(["HSET", key, ...fields]),
      this.redis.command(["PEXPIRE", key, String(this.idleTimeout)]),
    ]);
  }

  async touch(sessionId: string): Promise<SessionRecord | undefined> {
    const key = this.key(sessionId);
    const [fields] = await Promise.all([
      this.redis.command<string[]>(["HGETALL", key]),
      this.redis.command(["PEXPIRE", key, String(this.idleTimeout)]),
    ]);
    const record: Record<string, string> = {};
    for (let i = 0; i + 1 < fields.length; i += 2) record[fields[i]!] = fields[i + 1]!;
    // A save racing a DELETE may leave state behind; without `open` the session is over.
    if (record.open !== "1") return undefined;
    return {
      principal: record.principal,
      state: record.state === undefined ? undefined : (JSON.parse(record.state) as Record<string, unknown>),
    };
  }

  async save(sessionId: string, state: Record<string, unknown>): Promise<void> {
    const key = this.key(sessionId);
    await Promise.all([
      this.redis.command(["HSET", key, "state", JSON.stringify(state)]),
      this.redis.command(["PEXPIRE", key, String(this.idleTimeout)]),
    ]);
  }

  async delete(sessionId: string): Promise<void> {
    await this.redis.command(["DEL", this.key(sessionId)]);
  }

  private key(sessionId: string): string {
    return `${this.prefix}session:${sessionId}`;
  }
}
