import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { declaresExtension, missingExtension } from "../../protocol/extensions.js";
import type { Revision } from "../../protocol/revisions/index.js";
import type {
  DispatchHandler,
  ExtensionHost,
  MessageBus,
  RequestContext,
  ServerExtension,
  ServerMiddleware,
} from "../../server/index.js";
import { MemoryTaskStore } from "./memory-store.js";
import { TaskRelay } from "./relay.js";
import { TaskRuntime } from "./runtime.js";
import type { TaskStore } from "./store.js";
import { isTerminal, TASKS_EXTENSION } from "./types.js";
import { detailedTask, legacyPayload, legacyTask } from "./wire.js";

export interface TasksOptions {
  /** Where tasks are kept; default a `MemoryTaskStore` of at most 10,000 tasks. */
  store?: TaskStore;
  /** How long a task and its result are kept from its creation, ms. Default 1 hour. */
  ttl?: number;
  /** The longest `ttl` a 2025-11-25 client may ask for, ms. Default 24 hours. */
  maxTtl?: number;
  /** The polling interval suggested to clients, ms. Default 1 s. */
  pollInterval?: number;
  /** Tasks per page of `tasks/list` (2025-11-25). Default 100. */
  pageSize?: number;
  /** The clock task times are read from, epoch ms; give the store the same one. Default `Date.now`. */
  now?: () => number;
  /**
   * The replicas' message bus (`replication.bus`), beside a `store` they share: a `tasks/cancel`
   * or `tasks/update` that reaches a replica other than the one running the task is carried to
   * it, so its handler is aborted or gets the answers. Without it such a cancel only marks the task.
   */
  bus?: MessageBus;
}

const positive = (name: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new TypeError(`${name} must be a positive integer; got ${value}`);
  return value;
};

/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) and the tasks of 2025-11-25:
 * tools registered with `task: "optional" | "required"` run as tasks the client polls.
 *
 * In the stateless era the server decides: a client that declares the extension in the request's
 * `_meta` gets a `CreateTaskResult` for such a tool, one that does not gets the result inline (or
 * -32021 for a `required` tool); `tasks/get` inlines the result, `tasks/update` answers a task's
 * input requests, `tasks/cancel` acknowledges. In a 2025-11-25 session the client asks with
 * `task: { ttl }` on `tools/call`, and has `tasks/get`, `tasks/result`, `tasks/list`,
 * `tasks/cancel` and `notifications/tasks/status`.
 *
 * @example
 * const server = new McpServer({ name: "jobs", version: "1.0.0" }, { extensions: [tasks()] })
 *   .tool("render", { task: "optional" }, async (args, ctx) => { ... ctx.task?.id ... });
 */
export function tasks(options: TasksOptions = {}): ServerExtension & { readonly store: TaskStore } {
  const now = options.now ?? Date.now;
  const store: TaskStore = options.store ?? new MemoryTaskStore({ now });
  const runtime = new TaskRuntime({
    store,
    ttl: positive("ttl", options.ttl, 3_600_000),
    maxTtl: positive("maxTtl", options.maxTtl, 86_400_000),
    pollInterval: positive("pollInterval", options.pollInterval, 1000),
    now,
  });
  const pageSize = positive("pageSize", options.pageSize, 100);
  const relay = options.bus ? new TaskRelay(options.bus, runtime) : undefined;
  let host: ExtensionHost | undefined;

  const stateless = (ctx: RequestContext) => ctx.request.requestMeta !== undefined;
  /** Whether the session's revision has tasks in its core (2025-11-25). */
  const coreTasks = (revision: Revision | undefined) => revision?.clientRequests.has("tasks/get") === true;

  /**
   * A task-augmented `tools/call` is answered with the task here; the rest of the chain
   * (`server.use` middleware, then the tool) runs as the task, so what it makes of the result is
   * what the task stores and every way of fetching it returns.
   */
  const callTool: ServerMiddleware = (call, next) => {
    const params = call.params;
    const ctx = call.request!;
    const name = String(params.name);
    const tool = host?.tool(name);
    const task = tool?.task;
    if (!task) {
      if (!stateless(ctx) && params.task !== undefined && tool && coreTasks(ctx.session.revision)) {
        throw new McpError(
          ErrorCode.MethodNotFound,
          `Tool ${name} does not run as a task (execution.taskSupport is "forbidden")`,
        );
      }
      return next();
    }
    // How the request's revision carries tasks: the extension's form, or the session's core one.
    const rules = ctx.revision?.tasks;
    /** The rest of the chain, with the params and context the task runs with. */
    const rest: DispatchHandler = (taskParams, taskCtx) => {
      call.params = taskParams;
      call.request = taskCtx;
      return next();
    };
    if (stateless(ctx)) {
      if (rules && declaresExtension(ctx.clientCapabilities, TASKS_EXTENSION))
        return runtime.start(params, ctx, rest, rules, task);
      if (task.support === "required") throw missingExtension(TASKS_EXTENSION, `tool ${name}`);
      return next();
    }
    if (!rules || !coreTasks(ctx.session.revision)) return next();
    if (typeof params.task === "object" && params.task !== null)
      return runtime.start(params, ctx, rest, rules, task);
    if (task.support === "required") {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `Tool ${name} must be called as a task (execution.taskSupport is "required")`,
      );
    }
    return next();
  };

  return {
    id: TASKS_EXTENSION,
    settings: {},
    store,
    legacyCapabilities: (revision) =>
      coreTasks(revision)
        ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }
        : undefined,
    methods: [
      {
        method: "tasks/get",
        handler: async (params, ctx) => {
          const record = await runtime.owned(params, ctx);
          return stateless(ctx) ? detailedTask(record) : legacyTask(record);
        },
      },
      {
        method: "tasks/cancel",
        handler: async (params, ctx) => {
          const record = await runtime.owned(params, ctx);
          if (isTerminal(record.status)) {
            // SEP-2663 acknowledges again; 2025-11-25 refuses a terminal task.
            if (stateless(ctx)) return {};
            throw new McpError(ErrorCode.InvalidParams, `Task ${record.taskId} is already ${record.status}`);
          }
          const elsewhere = !runtime.running.has(record.taskId);
          const cancelled = await runtime.cancel(record);
          // The store says cancelled already: a bus that cannot be reached leaves the handler running.
          if (elsewhere) await relay?.cancel(record.taskId).catch(() => {});
          return stateless(ctx) ? {} : legacyTask(cancelled);
        },
      },
      {
        method: "tasks/update",
        eras: ["modern"],
        handler: async (params, ctx) => {
          const record = await runtime.owned(params, ctx);
          const responses = params.inputResponses;
          if (typeof responses !== "object" || responses === null || Array.isArray(responses)) {
            throw new McpError(ErrorCode.InvalidParams, "Invalid params: inputResponses must be an object");
          }
          const running = runtime.running.get(record.taskId);
          if (running) await running.answer(responses as Record<string, unknown>);
          else await relay?.update(record.taskId, responses as Record<string, unknown>);
          return {};
        },
      },
      {
        method: "tasks/result",
        eras: ["legacy"],
        handler: async (params, ctx) =>
          legacyPayload(await runtime.terminal(await runtime.owned(params, ctx), () => ctx.signal)),
      },
      {
        method: "tasks/list",
        eras: ["legacy"],
        handler: async (params, ctx) => {
          const cursor = params.cursor;
          if (cursor !== undefined && typeof cursor !== "string") {
            throw new McpError(ErrorCode.InvalidParams, "Invalid params: cursor must be a string");
          }
          const owner = runtime.owner(ctx);
          // Without a verified caller, a session lists the tasks it created.
          const session = owner === undefined ? runtime.sessionKey(ctx) : undefined;
          const page = await store.list({
            ...(session === undefined ? {} : { session }),
            limit: pageSize,
            ...(cursor === undefined ? {} : { cursor }),
            ...(owner === undefined ? {} : { owner }),
          });
          const result: Record<string, unknown> = { tasks: page.tasks.map(legacyTask) };
          if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
          return result;
        },
      },
    ],
    middleware: { "tools/call": callTool },
    notifications: ["notifications/tasks/status"],
    metaKeys: ["io.modelcontextprotocol/related-task"],
    setup(given) {
      if (host)
        throw new Error("This tasks() extension serves another server already: give each server its own");
      host = given;
      const sink = given.listenToTasks?.(TASKS_EXTENSION);
      if (sink) {
        runtime.announce = (record) =>
          sink(record.taskId, detailedTask(record), (auth) => runtime.ownerOf(auth) === record.owner);
      }
    },
    close: async () => {
      runtime.close();
      await relay?.close();
      await store.close?.();
    },
  };
}
