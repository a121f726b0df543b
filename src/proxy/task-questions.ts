/**
 * Which front task an upstream's question belongs to, while the proxy follows upstream tasks. A
 * stateless upstream's questions come from the proxy's own `tasks/get` polls, made with the
 * follower's signal; a session upstream's questions name their task in `_meta`
 * (`io.modelcontextprotocol/related-task`), possibly before the `tools/call` that created it has
 * been answered, so a question naming an unknown task waits a moment for a follower to learn it.
 */
import { RELATED_TASK } from "../extensions/tasks/index.js";
import type { ForwardedCall } from "./forwarded-call.js";

/** How long a question naming a task not yet known waits for a starting follower to name it, ms. */
const NAMING_WAIT = 5000;

/** One followed task, as its follower tells the registry about it. */
interface FollowedTask {
  /** The upstream answered with its task's id. */
  named(taskId: string): void;
  /** The follower stopped: the registry forgets the task. */
  end(): void;
}

/** The front tasks following an upstream task: by the signal they poll with and by upstream task id. */
export class UpstreamTasks {
  private readonly bySignal = new WeakMap<AbortSignal, ForwardedCall>();
  /** By `server` and upstream task id. */
  private readonly byId = new Map<string, ForwardedCall>();
  /** Per server, how many followers do not know their upstream task's id yet. */
  private readonly unnamed = new Map<string, number>();
  /** Questions waiting for a follower to learn the id they name. */
  private readonly waiters = new Set<() => void>();
  /** Resolves when each follower stopped. */
  private readonly active = new Set<Promise<void>>();

  /** How many tasks are followed now. */
  get size(): number {
    return this.byId.size;
  }

  /** Starts following a task of `server` for `call`, polled with `signal`. */
  follow(server: string, call: ForwardedCall, signal: AbortSignal): FollowedTask {
    this.bySignal.set(signal, call);
    this.unnamed.set(server, (this.unnamed.get(server) ?? 0) + 1);
    let key: string | undefined;
    let named = false;
    let stopped!: () => void;
    const ended = new Promise<void>((resolve) => {
      stopped = resolve;
    });
    this.active.add(ended);
    const settle = () => {
      if (named) return;
      named = true;
      const left = (this.unnamed.get(server) ?? 1) - 1;
      if (left === 0) this.unnamed.delete(server);
      else this.unnamed.set(server, left);
    };
    return {
      named: (taskId) => {
        key = `${server}\u0000${taskId}`;
        this.byId.set(key, call);
        settle();
        for (const wake of this.waiters) wake();
      },
      end: () => {
        settle();
        if (key !== undefined && this.byId.get(key) === call) this.byId.delete(key);
        for (const wake of this.waiters) wake();
        this.active.delete(ended);
        stopped();
      },
    };
  }

  /**
   * Resolves once every follower stopped (their tasks were aborted: each cancels its upstream
   * task first), or after `ms`.
   */
  async drain(ms: number): Promise<void> {
    if (this.active.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    await Promise.race([Promise.all(this.active), late]);
    clearTimeout(timer);
  }

  /** The followed call a question of `server` belongs to, if it names (or is polled for) one. */
  async callOf(
    server: string,
    params: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<ForwardedCall | undefined> {
    const own = this.bySignal.get(signal);
    if (own) return own;
    const related = (params._meta as Record<string, { taskId?: unknown } | undefined> | undefined)?.[
      RELATED_TASK
    ];
    if (typeof related?.taskId !== "string") return undefined;
    const key = `${server}\u0000${related.taskId}`;
    const deadline = Date.now() + NAMING_WAIT;
    while (!this.byId.has(key) && this.unnamed.has(server) && !signal.aborted && Date.now() < deadline) {
      await this.change(deadline - Date.now(), signal);
    }
    return this.byId.get(key);
  }

  /** Resolves when a follower learns or drops an id, after `ms`, or when `signal` aborts. */
  private change(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
      this.waiters.add(done);
    });
  }
}
