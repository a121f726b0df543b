import type { TaskStatus } from "../../protocol/features/tasks.js";
import type { InputMethod } from "../../server/index.js";

export { TASKS_EXTENSION, type TaskStatus } from "../../protocol/features/tasks.js";

/** The `_meta` key that ties a message to a task (2025-11-25). */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

const TERMINAL: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"]);

/** Whether a task in `status` is over: it never changes again. */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/** A question a task waits on, keyed in `inputRequests`. */
export interface TaskInputRequest {
  method: InputMethod;
  params?: Record<string, unknown>;
}

/** A JSON-RPC error a task failed with. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * A task as a store keeps it: plain JSON, so that a store may serialize it (times are epoch
 * milliseconds; the wire forms are made from it per era).
 */
export interface TaskRecord {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  /** How long the task is kept from its creation, in ms; `null` for as long as the store lasts. */
  ttl: number | null;
  pollInterval?: number;
  /** Who may see the task: the verified caller that created it; unset, whoever knows its id. */
  owner?: string;
  /**
   * The session that created the task, when no verified caller did: `tasks/list` shows a task
   * without an owner only to its session (its id stays reachable by whoever knows it).
   */
  session?: string;
  /** The request it stands for (`tools/call`). */
  method: string;
  /** The final result (`completed`). */
  result?: Record<string, unknown>;
  /** The error (`failed`). */
  error?: TaskError;
  /** The questions the task waits on (`input_required`). */
  inputRequests?: Record<string, TaskInputRequest>;
}

/** What may change of a task after its creation. */
export type TaskUpdate = Partial<
  Pick<TaskRecord, "status" | "statusMessage" | "result" | "error" | "inputRequests" | "pollInterval">
>;
