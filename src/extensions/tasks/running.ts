import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { TaskRules } from "../../protocol/revisions/revision.js";
import type { ClientSend, InputMethod, ServerSession } from "../../server/index.js";
import type { TaskLink } from "./context.js";
import type { TaskStore } from "./store.js";
import { RELATED_TASK, type TaskInputRequest, type TaskRecord, type TaskUpdate } from "./types.js";
import { legacyTask } from "./wire.js";

/** A question a task waits on, and who waits. */
interface Waiting {
  request: TaskInputRequest;
  resolve: (answer: unknown) => void;
  reject: (error: unknown) => void;
}

/** A task this process runs: what cancels it, what it waits on, where its changes go. */
export class Running implements TaskLink {
  /** Made on first use of `signal`: most handlers never look at it, and each costs. */
  private controller: AbortController | undefined;
  /** Why the task was stopped, once it was. */
  private stopped: McpError | undefined;
  readonly waiting = new Map<string, Waiting>();
  private readonly used = new Set<string>();
  private asked = 0;
  /** Store writes, one after the other, so the last state written is the last state reached. */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    readonly id: string,
    /** How the revision the task was created in carries it. */
    readonly rules: TaskRules,
    private readonly session: ServerSession,
    private readonly store: TaskStore,
    /** Where a 2026-07-28 task's changes go: the listen streams that asked for it. */
    private readonly listeners?: (record: TaskRecord) => void,
  ) {}

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.stopped) this.controller.abort(this.stopped);
    }
    return this.controller.signal;
  }

  statusMessage(message: string): Promise<void> {
    return this.write({ statusMessage: message }).then(() => {});
  }

  progress(progress: number, total: number | undefined, message: string | undefined): void {
    const amount = total === undefined ? `${progress}` : `${progress}/${total}`;
    void this.write({ statusMessage: message === undefined ? amount : `${message} (${amount})` });
  }

  /** Writes a change to the store; the status notification follows it. */
  write(update: TaskUpdate): Promise<TaskRecord | undefined> {
    const written = this.writes.then(() => this.store.update(this.id, update));
    this.writes = written.then(
      (record) => record && this.announce(record),
      () => {},
    );
    return written;
  }

  private announce(record: TaskRecord): void {
    if (this.rules.statusVia === "listen") this.listeners?.(record);
    else if (!this.session.peer.isClosed)
      this.session.notify("notifications/tasks/status", legacyTask(record));
  }

  ask<T>(
    method: InputMethod,
    params: Record<string, unknown> | undefined,
    key: string | undefined,
  ): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    this.asked++;
    // Keys are never reused over a task's life, so an answer always meets the question it answers.
    let name = key ?? `${method}#${this.asked}`;
    if (this.used.has(name)) name = `${name}#${this.asked}`;
    this.used.add(name);
    return this.rules.input === "requests"
      ? this.askSession<T>(method, params)
      : this.askInput<T>(name, method, params);
  }

  /** 2025-11-25: a request to the client related to the task, while the task is `input_required`. */
  private async askSession<T>(method: InputMethod, params: Record<string, unknown> | undefined): Promise<T> {
    await this.write({ status: "input_required" });
    try {
      const meta = { ...(params?._meta as object | undefined), [RELATED_TASK]: { taskId: this.id } };
      return await this.session.peer.request<T>(method, { ...params, _meta: meta }, { signal: this.signal });
    } finally {
      if (!this.stopped) await this.write({ status: "working" });
    }
  }

  async exchange<T>(run: (send: ClientSend) => Promise<T>): Promise<T> {
    if (this.stopped) throw this.stopped;
    await this.write({ status: "input_required" });
    try {
      return await run((method, params, options) => {
        const meta = { ...(params._meta as object | undefined), [RELATED_TASK]: { taskId: this.id } };
        const signal = options.signal ?? this.signal;
        return this.session.peer.request(method, { ...params, _meta: meta }, { ...options, signal });
      });
    } finally {
      if (!this.stopped) await this.write({ status: "working" });
    }
  }

  /** 2026-07-28: an input request `tasks/get` shows, answered by `tasks/update`. */
  private askInput<T>(
    name: string,
    method: InputMethod,
    params: Record<string, unknown> | undefined,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const request: TaskInputRequest = params === undefined ? { method } : { method, params };
      this.waiting.set(name, { request, resolve: resolve as (answer: unknown) => void, reject });
      void this.write(this.openQuestions());
    });
  }

  /** Answers questions the task waits on; keys it does not wait on are ignored. */
  async answer(responses: Record<string, unknown>): Promise<void> {
    const answered: Waiting[] = [];
    for (const [key, answer] of Object.entries(responses)) {
      const waiting = this.waiting.get(key);
      if (!waiting) continue;
      this.waiting.delete(key);
      answered.push(waiting);
      waiting.resolve(answer);
    }
    if (answered.length > 0) await this.write(this.openQuestions());
  }

  private openQuestions(): TaskUpdate {
    if (this.waiting.size === 0) return { status: "working", inputRequests: undefined };
    const inputRequests: Record<string, TaskInputRequest> = {};
    for (const [key, { request }] of this.waiting) inputRequests[key] = request;
    return { status: "input_required", inputRequests };
  }

  /** Stops the handler: its signal aborts, and the questions it waits on fail. */
  abort(reason: string): void {
    const error = new McpError(ErrorCode.InternalError, reason);
    this.stopped ??= error;
    this.controller?.abort(error);
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}
