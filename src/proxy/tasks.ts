/**
 * The proxy's own tasks: the tasks extension on its front, so that a tool an upstream runs as a
 * task runs as a task of the proxy too (see `forwardTask`).
 */
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

/** The server extensions of a proxy's front, with its tasks extension, and that extension's store. */
export function frontTasks(
  options: ProxyTasksOptions | false | undefined,
  given: readonly ServerExtension[] = [],
): { extensions: readonly ServerExtension[]; store: TaskStore | undefined } {
  // A tasks extension given with the server options is the one the proxy's tasks go through.
  const own = given.find((extension) => extension.id === TASKS_EXTENSION) as
    | (ServerExtension & { store?: TaskStore })
    | undefined;
  if (own) return { extensions: given, store: own.store };
  if (options === false) return { extensions: given, store: undefined };
  const { maxTasks, ...settings } = options ?? {};
  const extension = tasks({
    ...settings,
    store: new MemoryTaskStore(maxTasks === undefined ? {} : { maxTasks }),
  });
  return { extensions: [...given, extension], store: extension.store };
}
