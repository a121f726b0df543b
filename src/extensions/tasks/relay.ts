import type { MessageBus } from "../../transports/http/server/replication.js";
import type { TaskRuntime } from "./runtime.js";

/** What one replica tells the others of a task it does not run. */
type RelayMessage =
  | { from: string; t: "cancel"; taskId: string }
  | { from: string; t: "update"; taskId: string; inputResponses: Record<string, unknown> };

const CHANNEL = "tasks";

/**
 * Carries `tasks/cancel` and `tasks/update` between the replicas of a server sharing a task
 * store: the replica that got the request but does not run the task publishes it, and the one
 * that runs it aborts its handler or hands it the answers.
 */
export class TaskRelay {
  private stop: (() => void) | undefined;
  private readonly started: Promise<void>;

  constructor(
    private readonly bus: MessageBus,
    private readonly runtime: TaskRuntime,
  ) {
    this.started = bus
      .subscribe(CHANNEL, (text) => this.receive(text))
      .then(
        (stop) => {
          this.stop = stop;
        },
        // A bus that cannot be reached leaves each replica with its own tasks, as without one.
        () => {},
      );
  }

  /** Tells the replica running `taskId` that it was cancelled (the store says so already). */
  cancel(taskId: string): Promise<void> {
    return this.publish({ from: this.bus.replicaId, t: "cancel", taskId });
  }

  /** Hands answers to the input requests of `taskId` to the replica running it. */
  update(taskId: string, inputResponses: Record<string, unknown>): Promise<void> {
    return this.publish({ from: this.bus.replicaId, t: "update", taskId, inputResponses });
  }

  async close(): Promise<void> {
    await this.started;
    this.stop?.();
    this.stop = undefined;
  }

  private async publish(message: RelayMessage): Promise<void> {
    await this.started;
    await this.bus.publish(CHANNEL, JSON.stringify(message));
  }

  private receive(text: string): void {
    let message: RelayMessage;
    try {
      message = JSON.parse(text) as RelayMessage;
    } catch {
      return;
    }
    if (message.from === this.bus.replicaId || typeof message.taskId !== "string") return;
    const running = this.runtime.running.get(message.taskId);
    if (!running) return;
    if (message.t === "cancel") running.abort(`Task ${message.taskId} was cancelled`);
    else if (typeof message.inputResponses === "object" && message.inputResponses !== null)
      void running.answer(message.inputResponses).catch(() => {});
  }
}
