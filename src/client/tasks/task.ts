import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { RequestOptions } from "../../protocol/engine/peer.js";
import type { TaskStatus } from "../../protocol/features/tasks.js";
import type { TaskRules } from "../../protocol/revisions/revision.js";
import type { CallToolResult } from "../../protocol/types/tools.js";
import type { FeatureAnswerer } from "../channels/channel.js";
import { ToolResult } from "../tools/tool-result.js";

/** A task's state as the server last reported it, with the field names of both eras made one. */
export interface TaskInfo {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** How long the server keeps the task from its creation, ms; `null` for no limit. */
  ttl: number | null;
  /** How often the server suggests polling, ms. */
  pollInterval?: number;
}

const TERMINAL = new Set<string>(["completed", "failed", "cancelled"]);

/** The most a poll interval grows to while nothing changes, ms (or the server's own, if longer). */
const MAX_BACKOFF = 5000;

/** What a task handle sends through: the client's requests and its answers to input requests. */
export interface TaskChannel {
  /** How the revision spoken carries tasks; `undefined` where it has none. */
  readonly rules: TaskRules | undefined;
  request<T>(method: string, params: Record<string, unknown>, options?: RequestOptions): Promise<T>;
  answer: FeatureAnswerer;
  /** Hears of a task's changes as the server pushes them (2026-07-28 listen streams), if it can. */
  watch?(taskId: string, listener: (task: Record<string, unknown>) => void): () => void;
}

/** The task a `tools/call` answered with, or `undefined` for an inline result. */
export function createdTask(result: Record<string, unknown>): TaskInfo | undefined {
  if (result.resultType === "task" && typeof result.taskId === "string") return taskInfo(result);
  const task = result.task as Record<string, unknown> | undefined;
  if (task && typeof task === "object" && typeof task.taskId === "string" && !("content" in result)) {
    return taskInfo(task);
  }
  return undefined;
}

function taskInfo(wire: Record<string, unknown>): TaskInfo {
  const info: TaskInfo = {
    taskId: String(wire.taskId),
    status: String(wire.status) as TaskStatus,
    createdAt: String(wire.createdAt ?? ""),
    lastUpdatedAt: String(wire.lastUpdatedAt ?? ""),
    ttl: (wire.ttlMs ?? wire.ttl ?? null) as number | null,
  };
  const poll = wire.pollIntervalMs ?? wire.pollInterval;
  if (typeof poll === "number" && poll > 0) info.pollInterval = poll;
  if (typeof wire.statusMessage === "string") info.statusMessage = wire.statusMessage;
  return info;
}

/**
 * A tool call running as a task on the server (`client.callTool(name, args, { task: true })`):
 * poll its `status()`, wait for its `result()`, `cancel()` it, or iterate its status changes.
 * Input the task asks for (elicitation, sampling) is answered with the client's handlers.
 */
export class ToolTask implements AsyncIterable<TaskInfo> {
  /** The task's id: enough for another client of the same server to reach it. */
  readonly id: string;
  private last: TaskInfo;
  /** The final result, once known (inline in the stateless era's `tasks/get`). */
  private final: Record<string, unknown> | undefined;
  private finalError: McpError | undefined;
  private readonly answered = new Set<string>();

  constructor(
    private readonly channel: TaskChannel,
    info: TaskInfo,
    private readonly options: RequestOptions = {},
  ) {
    this.id = info.taskId;
    this.last = info;
  }

  /** A handle for a task already known by id (made by another client, or before a restart). */
  static async attach(channel: TaskChannel, taskId: string, options?: RequestOptions): Promise<ToolTask> {
    const task = new ToolTask(
      channel,
      { taskId, status: "working", createdAt: "", lastUpdatedAt: "", ttl: null },
      options,
    );
    await task.status();
    return task;
  }

  /**
   * A handle for a call the server answered inline (it may, for a fast tool): already
   * `completed`, with an empty id; `cancel()` does nothing.
   */
  static settled(channel: TaskChannel, result: CallToolResult): ToolTask {
    const now = new Date().toISOString();
    const task = new ToolTask(channel, {
      taskId: "",
      status: "completed",
      createdAt: now,
      lastUpdatedAt: now,
      ttl: null,
    });
    task.final = result as unknown as Record<string, unknown>;
    return task;
  }

  /** The state last seen, without asking the server. */
  get info(): TaskInfo {
    return this.last;
  }

  /** Asks the server for the task's state (`tasks/get`); answers input requests it shows. */
  async status(): Promise<TaskInfo> {
    const wire = await this.channel.request<Record<string, unknown>>(
      "tasks/get",
      { taskId: this.id },
      this.options,
    );
    return this.seen(wire);
  }

  /** Takes in the task's state as `tasks/get` or `notifications/tasks` shows it. */
  private async seen(wire: Record<string, unknown>): Promise<TaskInfo> {
    this.last = taskInfo(wire);
    if (this.last.status === "completed" && wire.result) this.final = wire.result as Record<string, unknown>;
    if (this.last.status === "failed") {
      if (wire.result) this.final = wire.result as Record<string, unknown>;
      const error = wire.error as { code?: number; message?: string; data?: unknown } | undefined;
      if (error)
        this.finalError = new McpError(
          error.code ?? ErrorCode.InternalError,
          error.message ?? "The task failed",
          error.data,
        );
    }
    if (this.last.status === "input_required" && wire.inputRequests) {
      await this.answer(
        wire.inputRequests as Record<string, { method: string; params?: Record<string, unknown> }>,
      );
    }
    return this.last;
  }

  /** Waits for the task to end and gives its result; rejects with its error, or if it was cancelled. */
  async result(): Promise<ToolResult> {
    for await (const _ of this) {
      // Polls until the task is terminal.
    }
    // Where the result is not inline in the task (the one `tasks/get` answered last), it is fetched.
    if (this.channel.rules?.resultVia !== "tasks/get" && this.id !== "") {
      const payload = await this.channel.request<CallToolResult>(
        "tasks/result",
        { taskId: this.id },
        this.options,
      );
      return new ToolResult(payload);
    }
    if (this.final) return new ToolResult(this.final as unknown as CallToolResult);
    if (this.finalError) throw this.finalError;
    throw new McpError(ErrorCode.InternalError, `Task ${this.id} was ${this.last.status}`, {
      taskId: this.id,
    });
  }

  /** Asks the server to cancel the task; it may still end otherwise, if it ended first. */
  async cancel(): Promise<void> {
    if (this.id === "") return;
    await this.channel.request("tasks/cancel", { taskId: this.id }, this.options);
  }

  /**
   * The task's states, from the current one to a terminal one: pushed by the server where it can
   * (`notifications/tasks` on a 2026-07-28 listen stream), and polled at the server's
   * `pollInterval`, backing off while nothing changes; each state is yielded once it changed.
   */
  async *[Symbol.asyncIterator](): AsyncIterator<TaskInfo> {
    let seen = "";
    let wait = this.last.pollInterval ?? 1000;
    let info = this.last;
    const pushed = this.id === "" || TERMINAL.has(info.status) ? undefined : new Pushed();
    const unwatch = pushed && this.channel.watch?.(this.id, (task) => pushed.push(task));
    try {
      for (;;) {
        const mark = `${info.status} ${info.statusMessage ?? ""} ${info.lastUpdatedAt}`;
        if (mark !== seen) {
          seen = mark;
          wait = info.pollInterval ?? wait;
          yield info;
        } else {
          wait = Math.min(wait * 1.5, Math.max(MAX_BACKOFF, info.pollInterval ?? 0));
        }
        if (TERMINAL.has(info.status) || this.id === "") return;
        const task = await pushed!.next(wait, this.options.signal);
        info = task ? await this.seen(task) : await this.status();
      }
    } finally {
      unwatch?.();
    }
  }

  /** Answers the input requests not answered yet, then sends the answers (`tasks/update`). */
  private async answer(
    requests: Record<string, { method: string; params?: Record<string, unknown> }>,
  ): Promise<void> {
    const signal = this.options.signal ?? new AbortController().signal;
    const inputResponses: Record<string, object> = {};
    await Promise.all(
      Object.entries(requests)
        .filter(([key]) => !this.answered.has(key))
        .map(async ([key, request]) => {
          this.answered.add(key);
          inputResponses[key] = await this.channel.answer(request.method, request.params ?? {}, signal);
        }),
    );
    if (Object.keys(inputResponses).length === 0) return;
    await this.channel.request("tasks/update", { taskId: this.id, inputResponses }, this.options);
  }
}

/** The task states the server pushed and not yet taken, the latest only. */
class Pushed {
  private latest: Record<string, unknown> | undefined;
  private wake: (() => void) | undefined;

  push(task: Record<string, unknown>): void {
    this.latest = task;
    this.wake?.();
  }

  /** The state pushed since the last call, waiting at most `ms` for one; `undefined` if none came. */
  next(ms: number, signal: AbortSignal | undefined): Promise<Record<string, unknown> | undefined> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", stop);
        this.wake = undefined;
        const task = this.latest;
        this.latest = undefined;
        resolve(task);
      };
      const stop = () => {
        clearTimeout(timer);
        this.wake = undefined;
        reject(signal!.reason);
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener("abort", stop, { once: true });
      if (this.latest) done();
      else this.wake = done;
    });
  }
}
