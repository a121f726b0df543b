import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { RequestOptions } from "../../protocol/engine/peer.js";
import type { ServerCapabilities } from "../../protocol/types/lifecycle.js";
import type { CallToolResult } from "../../protocol/types/tools.js";
import type { Channel, FeatureAnswerer } from "../channels/channel.js";
import { allPages } from "../requests/paginate.js";
import { type Requester, requireCapability } from "../requests/reads.js";
import { ToolResult } from "../tools/tool-result.js";
import { createdTask, type TaskChannel, type TaskInfo, ToolTask } from "./task.js";

/** Options of `callTool`: a request's, and whether to get the task's handle. */
export interface CallToolOptions extends RequestOptions {
  /** Give the task's handle (`ToolTask`) rather than wait for its result; `{ ttl }` asks a 2025-11-25 server to keep it that long. */
  task?: boolean | { ttl?: number };
}

type TaskAsk = CallToolOptions["task"];

/**
 * The tasks side of a client's tool calls: which calls ask to run as a task, what a `tools/call`
 * result becomes (its result, the task's result, or the task's handle), handles by id, and
 * `tasks/list`.
 */
export class ToolTasks {
  /** What tasks are polled through: the client's requests, and its answers to input requests. */
  private readonly tasks: TaskChannel;

  constructor(
    private readonly channel: Channel,
    private readonly request: Requester,
    answer: FeatureAnswerer,
    /** `execution.taskSupport` of the tools as last listed. */
    private readonly taskSupport: ReadonlyMap<string, string>,
  ) {
    this.tasks = {
      get rules() {
        return channel.revision.tasks;
      },
      request,
      answer,
      ...(channel.watchTask
        ? {
            watch: (taskId: string, listener: (task: Record<string, unknown>) => void) =>
              channel.watchTask!(taskId, listener),
          }
        : {}),
    };
  }

  /**
   * Sends a `tools/call` (`params` from the channel) and gives what its result gives: see
   * `settle`. The call asks to run as a task where the session calls for it.
   */
  call(
    name: string,
    params: Record<string, unknown>,
    options: CallToolOptions | undefined,
    capabilities: ServerCapabilities,
  ): Promise<ToolResult | ToolTask> {
    const asked = options?.task;
    this.ask(name, params, asked, capabilities);
    // Copied without `task` only when there is one: most calls pass their options on as they are.
    let requestOptions: RequestOptions | undefined = options;
    if (options?.task !== undefined) {
      const { task: _task, ...rest } = options;
      requestOptions = rest;
    }
    // A promise the map returns (a task's result) is adopted by the one `send` returns.
    return this.channel.send("tools/call", params, requestOptions, (result: CallToolResult) =>
      this.settle(result, asked, requestOptions),
    ) as Promise<ToolResult | ToolTask>;
  }

  /**
   * Asks in `params` for the call to run as a task where the session calls for it: in a session a
   * tool runs as a task only when asked to (unless listed as never one); one listed as needing it
   * is asked for.
   */
  private ask(
    name: string,
    params: Record<string, unknown>,
    asked: TaskAsk,
    capabilities: ServerCapabilities,
  ): void {
    if (this.channel.revision.tasks?.requestedByClient && capabilities.tasks !== undefined) {
      const support = this.taskSupport.get(name);
      if (support === "required" || (asked && support !== "forbidden")) {
        params.task = typeof asked === "object" ? { ...asked } : {};
      }
    }
  }

  /**
   * What a `tools/call` result gives: an inline result, or the task's result once it ends; with
   * `asked`, the task's handle (a settled one for an inline result).
   */
  private settle(
    result: CallToolResult,
    asked: TaskAsk,
    options: RequestOptions | undefined,
  ): ToolResult | ToolTask | Promise<ToolResult> {
    const created = createdTask(result as Record<string, unknown>);
    if (!created) return asked ? ToolTask.settled(this.tasks, result) : new ToolResult(result);
    const task = new ToolTask(this.tasks, created, options);
    return asked ? task : task.result();
  }

  /** A handle for a task of this server by its id. */
  attach(taskId: string, options?: RequestOptions): Promise<ToolTask> {
    return ToolTask.attach(this.tasks, taskId, options);
  }

  /** Every task the server lists for this client (`tasks/list`, every page). */
  async list(capabilities: ServerCapabilities, options?: RequestOptions): Promise<TaskInfo[]> {
    const { tasks: rules, version } = this.channel.revision;
    if (rules && !rules.listing) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `The tasks extension of protocol ${version} has no tasks/list`,
      );
    }
    requireCapability(capabilities.tasks, "tasks (tasks.list)");
    const tasks = await allPages<Record<string, unknown>>(
      (method, cursor) => this.request(method, cursor === undefined ? undefined : { cursor }, options),
      "tasks/list",
      "tasks",
    );
    return tasks.map((task) => createdTask({ task }) as TaskInfo);
  }
}
