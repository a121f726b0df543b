import type { RequestOptions } from "../../protocol/engine/outgoing.js";
import type { ClientCapabilities } from "../../protocol/types/lifecycle.js";
import { pause } from "../../util/pause.js";

/** How a handler asks the client to run its request as a task (2025-11-25 client-side tasks). */
export interface ClientTaskRequest {
  /** How long the client should keep the task from its creation, ms; the client's default otherwise. */
  ttl?: number;
}

/** Sends a request to the client. */
export type ClientSend = <T>(
  method: string,
  params: Record<string, unknown>,
  options: RequestOptions,
) => Promise<T>;

/** The capability path of each request a client may run as a task. */
const CAPABILITY: Record<string, [string, string]> = {
  "sampling/createMessage": ["sampling", "createMessage"],
  "elicitation/create": ["elicitation", "create"],
};

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** The most the interval between two polls is, whatever the client suggests, ms. */
const MAX_POLL = 30_000;

/** Whether the client declared that it runs `method` as a task (`tasks.requests…`). */
export function clientRunsAsTask(capabilities: ClientCapabilities, method: string): boolean {
  const path = CAPABILITY[method];
  if (!path) return false;
  const requests = (capabilities.tasks as { requests?: Record<string, Record<string, unknown>> } | undefined)
    ?.requests;
  return typeof requests?.[path[0]]?.[path[1]] === "object";
}

interface WireTask {
  taskId: string;
  status: string;
  pollInterval?: number;
}

/**
 * Sends `method` to the client as a task and waits for its result: the client answers with a
 * `CreateTaskResult`, which is polled with `tasks/get` at the task's `pollInterval` until it ends
 * (or needs input), and its result fetched with `tasks/result`. When `signal` aborts, the task is
 * cancelled with `cancel` (`tasks/cancel`, sent apart from the aborted request). A client that
 * answers inline (it ignored `task`) is taken at its word.
 */
export async function askAsTask<T>(
  send: ClientSend,
  cancel: (taskId: string) => Promise<unknown>,
  method: string,
  params: Record<string, unknown>,
  task: ClientTaskRequest,
  options: RequestOptions,
  signal: AbortSignal,
): Promise<T> {
  const ttl = task.ttl;
  if (ttl !== undefined && (!Number.isInteger(ttl) || ttl < 1))
    throw new TypeError(`task.ttl must be a positive integer; got ${ttl}`);
  const created = await send<Record<string, unknown>>(
    method,
    { ...params, task: ttl === undefined ? {} : { ttl } },
    options,
  );
  const first = created.task as WireTask | undefined;
  if (typeof first !== "object" || first === null || typeof first.taskId !== "string") return created as T;
  const { taskId } = first;
  const follow = { ...options, signal };
  try {
    let current: WireTask = first;
    while (!TERMINAL.has(current.status) && current.status !== "input_required") {
      await pause(Math.min(current.pollInterval ?? 1000, MAX_POLL), signal);
      current = await send<WireTask>("tasks/get", { taskId }, follow);
    }
    return await send<T>("tasks/result", { taskId }, follow);
  } catch (error) {
    if (signal.aborted) {
      // The handler no longer waits: the client need not go on.
      await cancel(taskId).catch(() => undefined);
    }
    throw error;
  }
}
