/** `--redis <url>` of `serve` and `proxy`: run as one of several replicas sharing a Redis. */
import type { Command } from "commander";
import type { RedisReplication } from "../../redis/replication.js";
import { MissingPeerError } from "../../util/optional-peer.js";
import { ConnectionError, describeError, UsageError } from "./errors.js";
import { note } from "./status.js";

export interface RedisCliOptions {
  redis?: string;
}

/** Declares `--redis`. */
export function redisOption(command: Command): Command {
  return command.option(
    "--redis <url>",
    "keep sessions and stream events in Redis (redis://host:port), to run several replicas behind a load balancer (implies --http)",
  );
}

/** Checks `--redis` as a usage error before anything starts. */
export function checkRedisUrl(url: string | undefined): void {
  if (url === undefined) return;
  let scheme: string;
  try {
    scheme = new URL(url).protocol;
  } catch {
    throw new UsageError(`--redis must be a URL such as redis://127.0.0.1:6379, not "${url}"`);
  }
  if (scheme !== "redis:" && scheme !== "rediss:")
    throw new UsageError(`--redis must be a redis:// or rediss:// URL, not "${url}"`);
}

/**
 * The shared stores on `--redis`, connected (the Redis code loads only then); a Redis that cannot
 * be reached is a connection error (exit 3). `MCPKIT_REQUEST_STATE_SECRET` is the secret all
 * replicas sign request state with; unset, they share one kept in Redis.
 */
export async function replicationOf(url: string | undefined): Promise<RedisReplication | undefined> {
  if (url === undefined) return undefined;
  checkRedisUrl(url);
  const { redisReplication } = await import("../../redis/replication.js").catch((error: unknown) => {
    if (error instanceof MissingPeerError) {
      throw new UsageError("--redis needs @redis/client: npm install @redis/client", { cause: error });
    }
    throw error;
  });
  const secret = process.env.MCPKIT_REQUEST_STATE_SECRET;
  try {
    const replication = await redisReplication({ url, ...(secret ? { requestStateSecret: secret } : {}) });
    note(
      `mcpkit: sessions kept in Redis at ${new URL(url).host}: start more replicas on it behind a balancer`,
    );
    return replication;
  } catch (error) {
    throw new ConnectionError(`${describeError(error)} (--redis)`, { cause: error });
  }
}
