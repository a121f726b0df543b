import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { TaskPage, TaskStore } from "./store.js";
import { isTerminal, type TaskRecord, type TaskUpdate } from "./types.js";

export interface MemoryTaskStoreOptions {
  /** The most tasks kept at once, expired ones aside; one more is refused. Default 10,000. */
  maxTasks?: number;
  /** The clock, in epoch ms; tests give one they move by hand. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  record: TaskRecord;
  /** The task's place in creation order, which cursors name. */
  seq: number;
}

/**
 * The default task store: tasks in this process's memory, at most `maxTasks` of them. Expired
 * tasks are never returned, and are dropped when the store is full and every so often on
 * creation, so memory stays bounded by the cap.
 */
export class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, Entry>();
  private readonly maxTasks: number;
  private readonly now: () => number;
  private seq = 0;

  constructor(options: MemoryTaskStoreOptions = {}) {
    const max = options.maxTasks ?? 10_000;
    if (!Number.isInteger(max) || max < 1)
      throw new TypeError(`maxTasks must be a positive integer; got ${max}`);
    this.maxTasks = max;
    this.now = options.now ?? Date.now;
  }

  /** How many tasks are held, expired ones not yet dropped included. */
  get size(): number {
    return this.tasks.size;
  }

  async create(task: TaskRecord): Promise<void> {
    if (this.tasks.size >= this.maxTasks || this.seq % 256 === 0) this.sweep();
    if (this.tasks.size >= this.maxTasks) {
      throw new McpError(
        ErrorCode.InternalError,
        `Too many tasks: the server keeps at most ${this.maxTasks} (maxTasks); try again once some have expired`,
      );
    }
    if (this.tasks.has(task.taskId)) throw new Error(`A task ${task.taskId} exists already`);
    this.tasks.set(task.taskId, { record: structuredClone(task), seq: ++this.seq });
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const entry = this.live(taskId);
    return entry && structuredClone(entry.record);
  }

  async update(taskId: string, update: TaskUpdate): Promise<TaskRecord | undefined> {
    const entry = this.live(taskId);
    if (!entry) return undefined;
    const record = entry.record;
    if (!isTerminal(record.status)) {
      for (const [key, value] of Object.entries(update) as [keyof TaskUpdate, unknown][]) {
        if (value === undefined) delete record[key];
        else (record as unknown as Record<string, unknown>)[key] = structuredClone(value);
      }
      record.lastUpdatedAt = this.now();
    }
    return structuredClone(record);
  }

  async list(options: {
    cursor?: string;
    limit: number;
    owner?: string;
    session?: string;
  }): Promise<TaskPage> {
    const { cursor, limit, owner, session } = options;
    let after = 0;
    if (cursor !== undefined) {
      after = Number.parseInt(cursor, 36);
      if (!/^[0-9a-z]+$/.test(cursor) || !Number.isSafeInteger(after)) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid cursor: ${JSON.stringify(cursor)}`);
      }
    }
    const tasks: TaskRecord[] = [];
    const now = this.now();
    let last = 0;
    for (const entry of this.tasks.values()) {
      const { record } = entry;
      if (entry.seq <= after || record.owner !== owner || this.expired(record, now)) continue;
      if (session !== undefined && record.session !== session) continue;
      if (tasks.length === limit) return { tasks, nextCursor: last.toString(36) };
      tasks.push(structuredClone(entry.record));
      last = entry.seq;
    }
    return { tasks };
  }

  private live(taskId: string): Entry | undefined {
    const entry = this.tasks.get(taskId);
    if (!entry) return undefined;
    if (!this.expired(entry.record, this.now())) return entry;
    this.tasks.delete(taskId);
    return undefined;
  }

  private expired(record: TaskRecord, now: number): boolean {
    return record.ttl !== null && now >= record.createdAt + record.ttl;
  }

  private sweep(): void {
    const now = this.now();
    for (const [taskId, entry] of this.tasks) if (this.expired(entry.record, now)) this.tasks.delete(taskId);
  }
}
