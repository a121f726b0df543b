import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { Peer } from "../../protocol/engine/peer.js";
import type { TaskStatus } from "../../protocol/features/tasks.js";
import type { ClientCapabilities } from "../../protocol/types/lifecycle.js";
import { isoTime } from "../../util/iso-time.js";
import type { FeatureAnswerer, ServerRequestGate } from "../channels/channel.js";
import { type ClientTask, ClientTaskStore, terminal } from "./task-store.js";

/** How the client runs the requests a server asks it to run as tasks (2025-11-25). */
export interface ClientTaskOptions {
  /** The most tasks kept at once; at the cap the oldest ended one makes room. Default 100. */
  maxTasks?: number;
  /** How long a task is kept from its creation when the server asks no `ttl`, ms. Default 10 minutes. */
  ttl?: number;
  /** The longest `ttl` the server may ask for, ms. Default 1 hour. */
  maxTtl?: number;
  /** The polling interval suggested to the server, ms. Default 500. */
  pollInterval?: number;
  /** Tasks per page of `tasks/list`. Default 100. */
  pageSize?: number;
}

/** The `_meta` key that ties a result to its task. */
const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** The requests a client runs as tasks, and the capability each needs. */
const TASK_METHODS = {
  "sampling/createMessage": ["sampling", "createMessage"],
  "elicitation/create": ["elicitation", "create"],
} as const;

type TaskMethod = keyof typeof TASK_METHODS;

const positive = (name: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new TypeError(`clientTasks.${name} must be a positive integer; got ${value}`);
  return value;
};

/**
 * Client-side tasks (2025-11-25): a `sampling/createMessage` or `elicitation/create` the server
 * sends with `task` is answered at once with a `CreateTaskResult`, and the client's own handler
 * runs it; the server follows it with `tasks/get`, `tasks/result`, `tasks/list` and
 * `tasks/cancel`, and `notifications/tasks/status` tells it of each change.
 */
export class TaskReceiver {
  private readonly store: ClientTaskStore;
  private readonly ttl: number;
  private readonly maxTtl: number;
  private readonly pollInterval: number;
  private readonly pageSize: number;

  constructor(
    private readonly peer: Peer,
    private readonly answer: FeatureAnswerer,
    options: ClientTaskOptions,
  ) {
    this.store = new ClientTaskStore(positive("maxTasks", options.maxTasks, 100));
    this.ttl = positive("ttl", options.ttl, 600_000);
    this.maxTtl = positive("maxTtl", options.maxTtl, 3_600_000);
    this.pollInterval = positive("pollInterval", options.pollInterval, 500);
    this.pageSize = positive("pageSize", options.pageSize, 100);
    peer.onClose(() => this.store.clear("The connection closed"));
  }

  /** The `tasks` capability for the features the client has. */
  static capability(methods: readonly string[]): ClientCapabilities["tasks"] | undefined {
    const requests: Record<string, Record<string, object>> = {};
    for (const method of methods) {
      const path = TASK_METHODS[method as TaskMethod];
      if (path) requests[path[0]] = { [path[1]]: {} };
    }
    if (Object.keys(requests).length === 0) return undefined;
    return { list: {}, cancel: {}, requests };
  }

  /** Whether the server asks for `method` to run as a task. */
  static asked(method: string, params: Record<string, unknown>): boolean {
    return method in TASK_METHODS && typeof params.task === "object" && params.task !== null;
  }

  /** Installs `tasks/*`, answered while `gate` is open (in a handshake session). */
  install(gate: ServerRequestGate): void {
    const handlers: Record<
      string,
      (params: Record<string, unknown>, signal: AbortSignal) => Promise<object>
    > = {
      "tasks/get": async (params) => wire(this.store.get(params.taskId)),
      "tasks/result": (params, signal) => this.result(this.store.get(params.taskId), signal),
      "tasks/list": async (params) => {
        const page = this.store.list(params.cursor, this.pageSize);
        const result: Record<string, unknown> = { tasks: page.tasks.map(wire) };
        if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
        return result;
      },
      "tasks/cancel": async (params) => {
        const task = this.store.get(params.taskId);
        if (terminal(task.status))
          throw new McpError(ErrorCode.InvalidParams, `Task ${task.taskId} is already ${task.status}`);
        this.settle(task, "cancelled", { statusMessage: "Cancelled by the server" });
        task.controller.abort(new McpError(ErrorCode.InternalError, `Task ${task.taskId} was cancelled`));
        return wire(task);
      },
    };
    for (const [method, handle] of Object.entries(handlers)) {
      this.peer.setRequestHandler(method, (params, request) => {
        if (!gate.open) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
        return handle(params ?? {}, request.signal);
      });
    }
  }

  /** Starts a task for the request and answers with it; the handler goes on answering the request. */
  create(method: string, params: Record<string, unknown>): object {
    const { task: asked, ...request } = params;
    const wanted = (asked as { ttl?: unknown }).ttl;
    const ttl =
      typeof wanted === "number" && wanted > 0 ? Math.min(Math.floor(wanted), this.maxTtl) : this.ttl;
    const task = this.store.create(method, ttl, this.pollInterval);
    void (async () => {
      try {
        const result = (await this.answer(method, request, task.controller.signal)) as Record<
          string,
          unknown
        >;
        this.settle(task, "completed", { result });
      } catch (error) {
        const failure =
          error instanceof McpError
            ? (error.toJSON() as ClientTask["error"])
            : {
                code: ErrorCode.InternalError,
                message: error instanceof Error ? error.message : String(error),
              };
        this.settle(task, "failed", { error: failure });
      }
    })();
    return { task: wire(task) };
  }

  /** Ends a task and tells the server, unless it had ended already. */
  private settle(
    task: ClientTask,
    status: TaskStatus,
    outcome: Pick<ClientTask, "result" | "error" | "statusMessage">,
  ) {
    if (this.store.settle(task, status, outcome) && !this.peer.isClosed)
      this.peer.notify("notifications/tasks/status", wire(task));
  }

  /** `tasks/result`: waits for the task to end, then its result or its error. */
  private async result(task: ClientTask, signal: AbortSignal): Promise<object> {
    if (!terminal(task.status)) {
      await new Promise<void>((resolve, reject) => {
        const stop = () => reject(signal.reason);
        signal.addEventListener("abort", stop, { once: true });
        void task.ended.then(() => {
          signal.removeEventListener("abort", stop);
          resolve();
        });
      });
    }
    if (task.status === "completed" && task.result) {
      const meta = { ...(task.result._meta as object | undefined), [RELATED_TASK]: { taskId: task.taskId } };
      return { ...task.result, _meta: meta };
    }
    const error = task.error ?? {
      code: ErrorCode.InternalError,
      message: `Task ${task.taskId} was ${task.status}`,
    };
    throw new McpError(error.code, error.message, error.data);
  }
}

/** A task as 2025-11-25 names its fields. */
function wire(task: ClientTask): Record<string, unknown> {
  const shown: Record<string, unknown> = {
    taskId: task.taskId,
    status: task.status,
    createdAt: isoTime(task.createdAt),
    lastUpdatedAt: isoTime(task.lastUpdatedAt),
    ttl: task.ttl,
    pollInterval: task.pollInterval,
  };
  if (task.statusMessage !== undefined) shown.statusMessage = task.statusMessage;
  return shown;
}
