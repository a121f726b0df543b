import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { RequestId } from "../../jsonrpc/messages.js";
import type { IncomingRequest } from "../../protocol/engine/incoming.js";
import { META } from "../../protocol/eras/request-meta.js";
import { declaresExtension, missingExtension } from "../../protocol/extensions.js";
import type { AuthInfo } from "../../protocol/transport.js";
import type { ServerCapabilities } from "../../protocol/types/lifecycle.js";

/** What a `subscriptions/listen` request opts in to. */
interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** Tasks whose status changes the stream hears of (`notifications/tasks`, SEP-2663). */
  taskIds?: string[];
}

/**
 * Where a tasks extension reports a task's changes for the listen streams that asked for its id:
 * `task` is the notification's params (the task as `tasks/get` would show it), `visible` says
 * whether a stream opened by that caller may see it.
 */
export type TaskStatusSink = (
  taskId: string,
  task: Record<string, unknown>,
  visible: (auth: AuthInfo | undefined) => boolean,
) => void;

interface Listener {
  request: IncomingRequest;
  /** The listen request's own JSON-RPC id, as the spec has it. */
  id: RequestId;
  filter: ListenFilter;
}

/** How many listen streams a server holds open at once by default. */
const DEFAULT_MAX_LISTEN_STREAMS = 1000;

/** How many resources, or tasks, one listen stream may subscribe to. */
const MAX_LISTEN_RESOURCES = 1000;

const LIST_KEYS = {
  tools: "toolsListChanged",
  prompts: "promptsListChanged",
  resources: "resourcesListChanged",
} as const;

/**
 * The open `subscriptions/listen` streams of a server (2026-07-28): each gets the change
 * notifications it opted in to, tagged with its subscription id, on its own response stream.
 */
export class Subscriptions {
  private readonly listeners = new Set<Listener>();
  /** The extension that answers `taskIds`, once one asked to. */
  private tasksExtension: string | undefined;

  constructor(
    /** The most listen streams open at once; one more is refused. */
    private readonly maxStreams = DEFAULT_MAX_LISTEN_STREAMS,
  ) {}

  /** Acknowledges and holds a listen request until the client ends it. */
  listen(
    params: Record<string, unknown>,
    request: IncomingRequest,
    capabilities: ServerCapabilities,
  ): Promise<object> {
    if (this.listeners.size >= this.maxStreams) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Too many subscriptions/listen streams: ${this.listeners.size} are open, the most this server allows (maxListenStreams); close one first`,
      );
    }
    const asked = (params.notifications ?? {}) as ListenFilter;
    // Only what the server can deliver is acknowledged.
    const filter: ListenFilter = {};
    if (asked.toolsListChanged && capabilities.tools?.listChanged) filter.toolsListChanged = true;
    if (asked.promptsListChanged && capabilities.prompts?.listChanged) filter.promptsListChanged = true;
    if (asked.resourcesListChanged && capabilities.resources?.listChanged) filter.resourcesListChanged = true;
    if (Array.isArray(asked.resourceSubscriptions) && capabilities.resources?.subscribe) {
      if (asked.resourceSubscriptions.length > MAX_LISTEN_RESOURCES) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid params: a listen stream subscribes to at most ${MAX_LISTEN_RESOURCES} resources, not ${asked.resourceSubscriptions.length}`,
        );
      }
      filter.resourceSubscriptions = asked.resourceSubscriptions.filter((uri) => typeof uri === "string");
    }
    if (Array.isArray(asked.taskIds) && this.tasksExtension !== undefined) {
      if (!declaresExtension(request.requestMeta?.clientCapabilities, this.tasksExtension))
        throw missingExtension(this.tasksExtension, "listening to tasks");
      if (asked.taskIds.length > MAX_LISTEN_RESOURCES) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid params: a listen stream listens to at most ${MAX_LISTEN_RESOURCES} tasks, not ${asked.taskIds.length}`,
        );
      }
      filter.taskIds = asked.taskIds.filter((id) => typeof id === "string");
    }
    const listener: Listener = { request, id: request.id, filter };
    this.listeners.add(listener);
    request.notify("notifications/subscriptions/acknowledged", {
      _meta: { [META.subscriptionId]: listener.id },
      notifications: filter,
    });
    return new Promise((resolve) => {
      request.signal.addEventListener(
        "abort",
        () => {
          this.listeners.delete(listener);
          resolve({ _meta: { [META.subscriptionId]: listener.id } });
        },
        { once: true },
      );
    });
  }

  listChanged(kind: keyof typeof LIST_KEYS): void {
    const key = LIST_KEYS[kind];
    for (const listener of this.listeners) {
      if (listener.filter[key]) this.send(listener, `notifications/${kind}/list_changed`, {});
    }
  }

  resourceUpdated(uri: string): void {
    for (const listener of this.listeners) {
      if (listener.filter.resourceSubscriptions?.includes(uri))
        this.send(listener, "notifications/resources/updated", { uri });
    }
  }

  /**
   * Lets listen streams ask for `taskIds`, for a client that declares `extension`: the returned
   * sink sends `notifications/tasks` to the streams listening to a task.
   */
  listenToTasks(extension: string): TaskStatusSink {
    this.tasksExtension = extension;
    return (taskId, task, visible) => {
      for (const listener of this.listeners) {
        if (listener.filter.taskIds?.includes(taskId) && visible(listener.request.auth))
          this.send(listener, "notifications/tasks", task);
      }
    };
  }

  private send(listener: Listener, method: string, params: Record<string, unknown>): void {
    listener.request.notify(method, { ...params, _meta: { [META.subscriptionId]: listener.id } });
  }
}
