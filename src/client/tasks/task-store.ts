import { randomUUID } from "node:crypto";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { TaskStatus } from "../../protocol/features/tasks.js";

/** A task the client runs for the server (2025-11-25 client-side tasks). */
export interface ClientTask {
  readonly taskId: string;
  readonly method: string;
  status: TaskStatus;
  statusMessage?: string;
  readonly createdAt: number;
  lastUpdatedAt: number;
  /** How long the task is kept from its creation, ms. */
  readonly ttl: number;
  readonly pollInterval: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  /** Aborts the handler answering the task's request. */
  readonly controller: AbortController;
  /** Resolves once the task is terminal. */
  readonly ended: Promise<void>;
  end(): void;
}

const TERMINAL = new Set<TaskStatus>(["completed", "failed", "cancelled"]);

/** Whether a task in `status` is over. */
export const terminal = (status: TaskStatus): boolean => TERMINAL.has(status);

/**
 * The tasks a client runs for its server, in memory and bounded: at most `maxTasks`. Expired tasks
 * are dropped (a running one is aborted) when the store is read; when it is full, the oldest
 * terminal task makes room, and with none a new task is refused.
 */
export class ClientTaskStore {
  /** In creation order: the first entries are the oldest. */
  private readonly tasks = new Map<string, { task: ClientTask; seq: number }>();
  private seq = 0;

  constructor(
    private readonly maxTasks: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.tasks.size;
  }

  create(method: string, ttl: number, pollInterval: number): ClientTask {
    this.sweep();
    if (this.tasks.size >= this.maxTasks) {
      const oldest = [...this.tasks.values()].find(({ task }) => terminal(task.status));
      if (!oldest) {
        throw new McpError(
          ErrorCode.InternalError,
          `Too many tasks: this client runs at most ${this.maxTasks} at once (clientTasks.maxTasks)`,
        );
      }
      this.tasks.delete(oldest.task.taskId);
    }
    const created = this.now();
    let end!: () => void;
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    const task: ClientTask = {
      taskId: randomUUID(),
      method,
      status: "working",
      createdAt: created,
      lastUpdatedAt: created,
      ttl,
      pollInterval,
      controller: new AbortController(),
      ended,
      end,
    };
    this.tasks.set(task.taskId, { task, seq: ++this.seq });
    return task;
  }

  get(taskId: unknown): ClientTask {
    this.sweep();
    const entry = typeof taskId === "string" ? this.tasks.get(taskId) : undefined;
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown task: ${String(taskId)}`, { taskId });
    return entry.task;
  }

  /** Moves a task that is not terminal to `status`; a terminal one stays as it is. */
  settle(
    task: ClientTask,
    status: TaskStatus,
    outcome: Pick<ClientTask, "result" | "error" | "statusMessage">,
  ) {
    if (terminal(task.status)) return false;
    task.status = status;
    task.lastUpdatedAt = this.now();
    Object.assign(task, outcome);
    task.end();
    return true;
  }

  /** A page of tasks, oldest first, after `cursor` (the position of the last one of a page). */
  list(cursor: unknown, limit: number): { tasks: ClientTask[]; nextCursor?: string } {
    this.sweep();
    let after = 0;
    if (cursor !== undefined) {
      after =
        typeof cursor === "string" && /^[0-9a-z]+$/.test(cursor) ? Number.parseInt(cursor, 36) : Number.NaN;
      if (!Number.isSafeInteger(after))
        throw new McpError(ErrorCode.InvalidParams, `Invalid cursor: ${JSON.stringify(cursor)}`);
    }
    const tasks: ClientTask[] = [];
    let last = 0;
    for (const { task, seq } of this.tasks.values()) {
      if (seq <= after) continue;
      if (tasks.length === limit) return { tasks, nextCursor: last.toString(36) };
      tasks.push(task);
      last = seq;
    }
    return { tasks };
  }

  /** Aborts every running task and forgets them all (the connection closed). */
  clear(reason: string): void {
    for (const { task } of this.tasks.values()) {
      if (!terminal(task.status)) {
        task.controller.abort(new McpError(ErrorCode.ConnectionClosed, reason));
        task.end();
      }
    }
    this.tasks.clear();
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, { task }] of this.tasks) {
      if (task.createdAt + task.ttl > now) continue;
      this.tasks.delete(id);
      if (!terminal(task.status)) {
        // Whoever still waits for it (tasks/result) hears why it ended.
        const error = { code: ErrorCode.InternalError, message: `Task ${id} expired before it ended` };
        this.settle(task, "failed", { error });
        task.controller.abort(new McpError(error.code, error.message));
      }
    }
  }
}
