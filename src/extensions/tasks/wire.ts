import { McpError } from "../../jsonrpc/errors.js";
import { isoTime } from "../../util/iso-time.js";
import { RELATED_TASK, type TaskError, type TaskRecord } from "./types.js";

/** The fields every task carries, as 2026-07-28 names them (SEP-2663). */
function modernTask(record: TaskRecord): Record<string, unknown> {
  const task: Record<string, unknown> = {
    taskId: record.taskId,
    status: record.status,
    createdAt: isoTime(record.createdAt),
    lastUpdatedAt: isoTime(record.lastUpdatedAt),
    ttlMs: record.ttl,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  if (record.pollInterval !== undefined) task.pollIntervalMs = record.pollInterval;
  return task;
}

/** A `DetailedTask`: the task with what its status inlines (result, error or input requests). */
export function detailedTask(record: TaskRecord): Record<string, unknown> {
  const task = modernTask(record);
  // The result is the request's own (a CallToolResult), which 2026-07-28 marks complete.
  if (record.status === "completed" && record.result)
    task.result = { resultType: "complete", ...record.result };
  if (record.status === "failed") task.error = record.error ?? { code: -32603, message: "The task failed" };
  if (record.status === "input_required") task.inputRequests = record.inputRequests ?? {};
  return task;
}

/** The `CreateTaskResult` of 2026-07-28: flat, discriminated by `resultType`. */
export function modernCreateResult(record: TaskRecord): Record<string, unknown> {
  return { resultType: "task", ...modernTask(record) };
}

/** A task as 2025-11-25 names its fields. */
export function legacyTask(record: TaskRecord): Record<string, unknown> {
  const task: Record<string, unknown> = {
    taskId: record.taskId,
    status: record.status,
    createdAt: isoTime(record.createdAt),
    lastUpdatedAt: isoTime(record.lastUpdatedAt),
    ttl: record.ttl,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  if (record.pollInterval !== undefined) task.pollInterval = record.pollInterval;
  return task;
}

/** What `tasks/result` answers for a terminal task (2025-11-25): its result, or its error. */
export function legacyPayload(record: TaskRecord): Record<string, unknown> {
  if (record.result) {
    const meta = {
      ...(record.result._meta as Record<string, unknown> | undefined),
      [RELATED_TASK]: { taskId: record.taskId },
    };
    return { ...record.result, _meta: meta };
  }
  const error = record.error ?? { code: -32603, message: `Task ${record.taskId} was ${record.status}` };
  throw new McpError(error.code, error.message, error.data);
}

/** The JSON-RPC error a task fails with, from what its handler threw. */
export function taskError(error: unknown): TaskError {
  if (error instanceof McpError) return error.toJSON() as TaskError;
  return { code: -32603, message: error instanceof Error ? error.message : String(error) };
}
