import type { TaskRecord, TaskUpdate } from "./types.js";

/** A page of tasks. */
export interface TaskPage {
  tasks: TaskRecord[];
  nextCursor?: string;
}

/**
 * Where tasks are kept. Every method is asynchronous so that a shared store (Redis…) can
 * implement it; `MemoryTaskStore` is the default.
 *
 * Rules a store keeps: a task is found until `createdAt + ttl` has passed and never after;
 * a task in a terminal status never changes again (`update` leaves it as it is and returns it);
 * `create` refuses, with a clear error, a task beyond the store's capacity.
 */
export interface TaskStore {
  /** Keeps a new task; resolves once `get` would find it. */
  create(task: TaskRecord): Promise<void>;
  /** The task, or `undefined` when it is unknown or has expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Applies `update` (and a new `lastUpdatedAt`) to a task that is not terminal; returns the task
   * as it now is, or `undefined` when it is unknown or has expired. An `inputRequests` of
   * `undefined` in `update` removes them.
   */
  update(taskId: string, update: TaskUpdate): Promise<TaskRecord | undefined>;
  /**
   * One page of the unexpired tasks of `owner` (or of no owner), oldest first; given `session`,
   * only those that session created.
   */
  list(options: { cursor?: string; limit: number; owner?: string; session?: string }): Promise<TaskPage>;
  /** Stops what the store runs of its own (timers, connections). */
  close?(): Promise<void>;
}
