import {
  isTerminal,
  type TaskPage,
  type TaskRecord,
  type TaskStore,
  type TaskUpdate,
} from "../extensions/tasks/index.js";
import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { RedisConnection } from "./connection.js";
import type { ReplicaLease } from "./lease.js";

/** A task as kept in Redis: with the replica running it, when the store knows its lease. */
type StoredTask = TaskRecord & { replica?: string };

/** Options of `RedisTaskStore`. */
export interface RedisTaskStoreOptions {
  /** The most unexpired tasks kept at once, over all replicas; one more is refused. Default 10,000. */
  maxTasks?: number;
  /** The clock, in epoch ms: the tasks extension's. Default `Date.now`. */
  now?: () => number;
}

/** Sets a key to a new value only if it still holds the value read (optimistic update). */
const COMPARE_AND_SET = `local current = redis.call('GET', KEYS[1])
if not current then return 0 end
if current ~= ARGV[1] then return -1 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1`;

/** How often an update read a task another replica changed meanwhile, before it gives up. */
const MAX_ATTEMPTS = 16;

/**
 * Tasks (the tasks extension's `TaskStore`) in Redis, so any replica answers `tasks/get`,
 * `tasks/result` and `tasks/list` of a task another runs: one JSON value per task
 * (`<prefix>task:<id>`, expiring with the task), a sorted set per owner in creation order
 * (`<prefix>tasks:<owner>`) for listing, and one of every task by expiry (`<prefix>tasks`) for the
 * cap. Updates are compare-and-set, so a terminal task never changes whichever replica writes.
 *
 * Given the replica's liveness `lease` (as `redisReplication`'s `taskStore()` does), each task
 * keeps which replica runs it. A task whose replica died (its lease lapsed) is marked `failed` by
 * the first replica that reads it, with a status message and an error saying so: its pollers and
 * `tasks/result` settle on that. Such a task is not run again — it may have run in part.
 */
export class RedisTaskStore implements TaskStore {
  private readonly maxTasks: number;
  private readonly now: () => number;

  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
    options: RedisTaskStoreOptions = {},
    private readonly lease?: ReplicaLease,
  ) {
    const max = options.maxTasks ?? 10_000;
    if (!Number.isInteger(max) || max < 1)
      throw new TypeError(`maxTasks must be a positive integer; got ${max}`);
    this.maxTasks = max;
    this.now = options.now ?? Date.now;
  }

  async create(task: TaskRecord): Promise<void> {
    const now = this.now();
    const all = `${this.prefix}tasks`;
    await this.redis.command(["ZREMRANGEBYSCORE", all, "-inf", String(now)]);
    const count = Number(await this.redis.command(["ZCARD", all]));
    if (count >= this.maxTasks) {
      throw new McpError(
        ErrorCode.InternalError,
        `Too many tasks: the server keeps at most ${this.maxTasks} (maxTasks); try again once some have expired`,
      );
    }
    const expiresAt = task.ttl === null ? Number.POSITIVE_INFINITY : task.createdAt + task.ttl;
    const stored: StoredTask = this.lease ? { ...task, replica: this.lease.replicaId } : task;
    const set = ["SET", this.key(task.taskId), JSON.stringify(stored), "NX"];
    // Redis expires it after what is left of its ttl by the store's clock (which may not be Redis's).
    if (task.ttl !== null) set.push("PX", String(Math.max(1, expiresAt - now)));
    if ((await this.redis.command(set)) === null) throw new Error(`A task ${task.taskId} exists already`);
    const seq = String(await this.redis.command(["INCR", `${this.prefix}task-seq`]));
    const score = expiresAt === Number.POSITIVE_INFINITY ? "+inf" : String(expiresAt);
    await Promise.all([
      this.redis.command(["ZADD", all, score, task.taskId]),
      this.redis.command(["ZADD", this.ownerKey(task.owner), seq, task.taskId]),
    ]);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const text = await this.redis.command<string | null>(["GET", this.key(taskId)]);
    const stored = text === null ? undefined : this.live(JSON.parse(text) as StoredTask);
    return stored && (await this.reckoned([stored]))[0];
  }

  async update(taskId: string, update: TaskUpdate): Promise<TaskRecord | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const text = await this.redis.command<string | null>(["GET", this.key(taskId)]);
      if (text === null) return undefined;
      const record = this.live(JSON.parse(text) as StoredTask);
      if (!record || isTerminal(record.status)) return record && withoutReplica(record);
      for (const [key, value] of Object.entries(update) as [keyof TaskUpdate, unknown][]) {
        if (value === undefined) delete record[key];
        else (record as unknown as Record<string, unknown>)[key] = value;
      }
      record.lastUpdatedAt = this.now();
      const done = await this.redis.command<number>([
        "EVAL",
        COMPARE_AND_SET,
        "1",
        this.key(taskId),
        text,
        JSON.stringify(record),
      ]);
      if (done === 1) return withoutReplica(record);
      if (done === 0) return undefined;
    }
    throw new McpError(ErrorCode.InternalError, `The task ${taskId} changed too often to be updated`);
  }

  async list({
    cursor,
    limit,
    owner,
  }: {
    cursor?: string;
    limit: number;
    owner?: string;
  }): Promise<TaskPage> {
    if (cursor !== undefined && !/^\d+$/.test(cursor))
      throw new McpError(ErrorCode.InvalidParams, `Invalid cursor: ${JSON.stringify(cursor)}`);
    const index = this.ownerKey(owner);
    const tasks: StoredTask[] = [];
    let after = cursor ?? "0";
    // Expired tasks are skipped (and dropped from the index), so a page may take a few reads.
    for (;;) {
      const page = await this.redis.command<string[]>([
        "ZRANGEBYSCORE",
        index,
        `(${after}`,
        "+inf",
        "WITHSCORES",
        "LIMIT",
        "0",
        String(limit + 1),
      ]);
      if (page.length === 0) return { tasks: await this.reckoned(tasks) };
      const ids = page.filter((_, i) => i % 2 === 0);
      const texts = await this.redis.command<(string | null)[]>(["MGET", ...ids.map((id) => this.key(id))]);
      const gone: string[] = [];
      for (let i = 0; i < ids.length; i++) {
        const record = texts[i] === null ? undefined : this.live(JSON.parse(texts[i]!) as StoredTask);
        if (!record) {
          gone.push(ids[i]!);
          continue;
        }
        if (tasks.length === limit) return { tasks: await this.reckoned(tasks), nextCursor: after };
        tasks.push(record);
        after = page[i * 2 + 1]!;
      }
      if (gone.length > 0) await this.redis.command(["ZREM", index, ...gone]);
      if (ids.length <= limit && gone.length === 0) return { tasks: await this.reckoned(tasks) };
      after = page[page.length - 1]!;
    }
  }

  /**
   * The tasks as the tasks extension sees them, those whose replica died (its lease lapsed) failed
   * now. Every replica a page names is asked about once.
   */
  private async reckoned(tasks: StoredTask[]): Promise<TaskRecord[]> {
    const lease = this.lease;
    const alive = new Map<string, Promise<boolean | undefined>>();
    return Promise.all(
      tasks.map(async (stored) => {
        const { replica, ...record } = stored;
        if (!lease || replica === undefined || isTerminal(record.status)) return record;
        let living = alive.get(replica);
        if (!living) {
          living = lease.alive(replica);
          alive.set(replica, living);
        }
        if ((await living) !== false) return record;
        return (await this.update(record.taskId, orphaned(record.taskId))) ?? record;
      }),
    );
  }

  /** The task unless it has expired by the store's clock (Redis expires it by its own). */
  private live(record: StoredTask): StoredTask | undefined {
    return record.ttl !== null && this.now() >= record.createdAt + record.ttl ? undefined : record;
  }

  private key(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
  }

  private ownerKey(owner: string | undefined): string {
    return `${this.prefix}tasks:${owner === undefined ? "-" : `=${owner}`}`;
  }
}

/** The task as the tasks extension sees it, without the replica running it. */
function withoutReplica({ replica: _, ...record }: StoredTask): TaskRecord {
  return record;
}

/** How a task whose replica died ends. */
function orphaned(taskId: string): TaskUpdate {
  const message = `The replica running task ${taskId} died (its liveness lease expired) before the task ended; it may have run in part and is not run again: start it again if that is safe`;
  return {
    status: "failed",
    statusMessage: "The replica running this task died; the task is not run again",
    error: { code: ErrorCode.InternalError, message },
    inputRequests: undefined,
  };
}
