import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { RequestId } from "../jsonrpc/messages.js";
import type { IncomingRequest } from "../protocol/engine/incoming.js";
import { META } from "../protocol/eras/request-meta.js";
import type { ServerCapabilities } from "../protocol/types/lifecycle.js";

/** What a `subscriptions/listen` request opts in to. */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

interface Listener {
  request: IncomingRequest;
  /** The listen request's own JSON-RPC id, as the spec has it. */
  id: RequestId;
  filter: ListenFilter;
}

/** How many listen streams a server holds open at once by default. */
export const DEFAULT_MAX_LISTEN_STREAMS = 1000;

/** How many resources one listen stream may subscribe to. */
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

  private send(listener: Listener, method: string, params: Record<string, unknown>): void {
    listener.request.notify(method, { ...params, _meta: { [META.subscriptionId]: listener.id } });
  }
}
