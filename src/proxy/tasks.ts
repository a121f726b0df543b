/**
 * The proxy's own tasks: the tasks extension on its front, so that a tool an upstream runs as a
 * task runs as a task of the proxy too (see `forwardTask`).
 */
import type { MultiServerClient } from "../client/multi/multi-client.js";
import { MemoryTaskStore, TASKS_EXTENSION, type TaskStore, tasks } from "../extensions/tasks/index.js";
import type { ServerExtension } from "../server/index.js";

/** The proxy's tasks: how many it keeps and for how long. */
export interface ProxyTasksOptions {
  /**
   * The most front tasks kept at once (each following one upstream task); one more is refused
   * until some expire. Default 10,000.
   */
  maxTasks?: number;
  /** How long a front task and its result are kept from its creation, ms; asked of the upstream too. Default 1 hour. */
  ttl?: number;
  /** The longest `ttl` a 2025-11-25 client may ask for, ms. Default 24 hours. */
  maxTtl?: number;
  /** The polling interval suggested to the proxy's clients, ms. Default 1 s. */
  pollInterval?: number;
}

/** Whether an upstream connected now runs tools as tasks (2025-11-25 `tasks`, or the extension). */
function offersTasks(multi: MultiServerClient): boolean {
  return multi.servers.some((server) => {
    let client: ReturnType<MultiServerClient["client"]>;
    try {
      client = multi.client(server);
    } catch {
      return false; // not connected
    }
    return client.capabilities.tasks !== undefined || client.serverExtension(TASKS_EXTENSION) !== undefined;
  });
}

/**
 * The server extensions of a proxy's front and the store of its tasks extension: the one given,
 * or one of the proxy's own when an upstream offers tasks at start (none otherwise, so a proxy
 * of upstreams without tasks declares none either).
 */
export function frontTasks(
  options: ProxyTasksOptions | false | undefined,
  given: readonly ServerExtension[] = [],
  upstreams: MultiServerClient,
): { extensions: readonly ServerExtension[]; store: TaskStore | undefined } {
  // A tasks extension given with the server options is the one the proxy's tasks go through.
  const own = given.find((extension) => extension.id === TASKS_EXTENSION) as
    | (ServerExtension & { store?: TaskStore })
    | undefined;
  if (own) return { extensions: given, store: own.store };
  if (options === false || !offersTasks(upstreams)) return { extensions: given, store: undefined };
  const { maxTasks, ...settings } = options ?? {};
  const extension = tasks({
    ...settings,
    store: new MemoryTaskStore(maxTasks === undefined ? {} : { maxTasks }),
  });
  return { extensions: [...given, extension], store: extension.store };
}
