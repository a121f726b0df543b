import { randomUUID } from "node:crypto";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { TaskRules } from "../../protocol/revisions/revision.js";
import type { AuthInfo } from "../../protocol/transport.js";
import type { RequestContext, ServerSession, ToolTaskOptions } from "../../server/index.js";
import { pause } from "../../util/pause.js";
import { TaskContext } from "./context.js";
import { Running } from "./running.js";
import type { TaskStore } from "./store.js";
import { isTerminal, type TaskRecord, type TaskUpdate } from "./types.js";
import { legacyTask, modernCreateResult, taskError } from "./wire.js";

/** Settings of the tasks a server runs. */
interface TaskSettings {
  store: TaskStore;
  /** How long a task is kept from its creation, ms. */
  ttl: number;
  /** The longest `ttl` a client may ask for (2025-11-25 `task.ttl`), ms. */
  maxTtl: number;
  /** The polling interval suggested to clients, ms. */
  pollInterval: number;
  now: () => number;
}

type Next = (params: Record<string, unknown>, ctx: RequestContext) => object | Promise<object>;

/**
 * The tasks of one server: starts tool calls as tasks, runs them, and answers `tasks/*` from the
 * store. Tasks this process runs are in `running` until they end; the rest is in the store.
 */
export class TaskRuntime {
  readonly running = new Map<string, Running>();
  /** Resolves when a task this process runs ends. */
  private readonly ended = new Map<string, Promise<void>>();
  /** A key per session, for listing tasks no verified caller owns. */
  private readonly sessions = new WeakMap<ServerSession, string>();
  /** Where 2026-07-28 tasks' changes go (`notifications/tasks` on listen streams), once set. */
  announce: ((record: TaskRecord) => void) | undefined;

  constructor(readonly settings: TaskSettings) {}

  /** The caller a task belongs to: its verified subject, when the transport verified one. */
  owner(ctx: RequestContext): string | undefined {
    return this.ownerOf(ctx.auth);
  }

  /** The owner a caller verified as `auth` is. */
  ownerOf(auth: AuthInfo | undefined): string | undefined {
    return auth ? `${auth.issuer} ${auth.subject}` : undefined;
  }

  /** The key of the session a request came in, for listing its tasks. */
  sessionKey(ctx: RequestContext): string {
    let key = this.sessions.get(ctx.session);
    if (key === undefined) {
      key = randomUUID();
      this.sessions.set(ctx.session, key);
    }
    return key;
  }

  /** A task of the caller's, or -32602. */
  async owned(params: Record<string, unknown>, ctx: RequestContext): Promise<TaskRecord> {
    const taskId = params.taskId;
    if (typeof taskId !== "string" || taskId.length === 0) {
      throw new McpError(ErrorCode.InvalidParams, 'Invalid params: the request needs a string "taskId"');
    }
    const record = await this.settings.store.get(taskId);
    if (!record || record.owner !== this.owner(ctx)) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown task: ${taskId}`, { taskId });
    }
    return record;
  }

  /**
   * Runs a tool call as a task: answers with the `CreateTaskResult` once the task is stored and
   * goes on running the handler. A tool that starts its task itself runs within the call until
   * its handler calls `ctx.startTask()`, and is answered inline if it returns before.
   */
  start(
    params: Record<string, unknown>,
    call: RequestContext,
    next: Next,
    rules: TaskRules,
    options: ToolTaskOptions,
  ): Promise<object> {
    const ctx = new TaskContext(call);
    const create = async (): Promise<{ running: Running; answer: object }> => {
      const record = await this.create(params, call, rules);
      const announce =
        rules.statusVia === "listen" ? (changed: TaskRecord) => this.announce?.(changed) : undefined;
      const running = new Running(record.taskId, rules, call.session, this.settings.store, announce);
      this.running.set(record.taskId, running);
      ctx.begin(running);
      return {
        running,
        answer: rules.createResult === "flat" ? modernCreateResult(record) : { task: legacyTask(record) },
      };
    };
    if (!options.startedByHandler) {
      return create().then(({ running, answer }) => {
        this.execute(running, () => next(params, ctx));
        return answer;
      });
    }
    return new Promise<object>((resolve, reject) => {
      let started: Running | undefined;
      let ran!: (outcome: Promise<object>) => void;
      const outcome = new Promise<object>((done) => {
        ran = done;
      });
      // Awaited only once the task started; before, the call itself reports a failure.
      outcome.catch(() => {});
      ctx.startTask = async () => {
        if (started) return started;
        const { running, answer } = await create();
        started = running;
        this.execute(running, () => outcome);
        resolve(answer);
        return running;
      };
      const result = (async () => next(params, ctx))();
      ran(result);
      result.then(
        (value) => {
          if (!started) resolve(value);
        },
        (error) => {
          if (!started) reject(error);
        },
      );
    });
  }

  private async create(
    params: Record<string, unknown>,
    ctx: RequestContext,
    rules: TaskRules,
  ): Promise<TaskRecord> {
    const { ttl, maxTtl, pollInterval, now } = this.settings;
    const asked = (params.task as { ttl?: unknown } | undefined)?.ttl;
    const wanted =
      rules.requestedByClient && typeof asked === "number" && asked > 0 ? Math.floor(asked) : ttl;
    const created = now();
    const record: TaskRecord = {
      taskId: randomUUID(),
      status: "working",
      createdAt: created,
      lastUpdatedAt: created,
      ttl: Math.min(wanted, maxTtl),
      pollInterval,
      method: "tools/call",
    };
    const owner = this.owner(ctx);
    if (owner !== undefined) record.owner = owner;
    else record.session = this.sessionKey(ctx);
    await this.settings.store.create(record);
    return record;
  }

  /** Runs a started task's handler to its end and stores how it ended. */
  private execute(running: Running, run: () => object | Promise<object>): void {
    const ended = (async () => {
      let update: TaskUpdate;
      try {
        const result = (await run()) as Record<string, unknown>;
        const status = running.rules.toolErrorFails && result.isError === true ? "failed" : "completed";
        update = { status, result, inputRequests: undefined };
      } catch (error) {
        update = { status: "failed", error: taskError(error), inputRequests: undefined };
      }
      await running.write(update).catch(() => undefined);
    })().finally(() => {
      this.running.delete(running.id);
      this.ended.delete(running.id);
    });
    this.ended.set(running.id, ended);
  }

  /** Cancels a task: it is `cancelled` from now on, and its handler's signal aborts. */
  async cancel(record: TaskRecord): Promise<TaskRecord> {
    const running = this.running.get(record.taskId);
    const update: TaskUpdate = {
      status: "cancelled",
      statusMessage: "Cancelled by the client",
      inputRequests: undefined,
    };
    let cancelled: TaskRecord | undefined;
    if (running) cancelled = await running.write(update);
    else {
      // Run elsewhere (another replica): its listen streams here hear of it all the same.
      cancelled = await this.settings.store.update(record.taskId, update);
      if (cancelled) this.announce?.(cancelled);
    }
    running?.abort(`Task ${record.taskId} was cancelled`);
    return cancelled ?? record;
  }

  /**
   * The task once it is terminal: waits for it to end here, or polls the store for it, `signal`
   * aborting the polling (asked for only then: a request's signal is made on first use).
   */
  async terminal(record: TaskRecord, signal: () => AbortSignal): Promise<TaskRecord> {
    let current: TaskRecord | undefined = record;
    while (current && !isTerminal(current.status)) {
      const ended = this.ended.get(current.taskId);
      if (ended) await ended;
      else await pause(current.pollInterval ?? this.settings.pollInterval, signal());
      current = await this.settings.store.get(current.taskId);
    }
    if (!current) throw new McpError(ErrorCode.InvalidParams, `Unknown task: ${record.taskId}`);
    return current;
  }

  /** Stops every task this process runs (the server is closing). */
  close(): void {
    for (const running of this.running.values()) running.abort("The server closed");
  }
}
