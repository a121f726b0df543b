import type { MessageBus } from "../../server/sessions/stores.js";
import { Acknowledgements } from "../../transports/http/server/acknowledgements.js";
import type { TaskRuntime } from "./runtime.js";

/** What one replica tells the others of a task it does not run. */
type RelayMessage =
  | { from: string; t: "cancel"; taskId: string }
  | { from: string; t: "update"; taskId: string; inputResponses: Record<string, unknown>; seq: number }
  | { from: string; t: "updated"; to: string; seq: number };

const CHANNEL = "tasks";
/**
 * How long a `tasks/update` waits for the other replicas to take its answers, in ms: the one
 * running the task acknowledges once the task's record no longer shows the questions answered.
 */
const UPDATE_TIMEOUT = 2000;

/**
 * Carries `tasks/cancel` and `tasks/update` between the replicas of a server sharing a task
 * store: the replica that got the request but does not run the task publishes it, and the one
 * that runs it aborts its handler or hands it the answers. An update is acknowledged by every
 * other replica, by the one running the task once the store shows the answers taken: the
 * `tasks/get` that follows the update's response sees them wherever it goes.
 */
export class TaskRelay {
  private stop: (() => void) | undefined;
  private readonly started: Promise<void>;
  private readonly updates = new Acknowledgements(UPDATE_TIMEOUT);

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
  async cancel(taskId: string): Promise<void> {
    await this.publish({ from: this.bus.replicaId, t: "cancel", taskId });
  }

  /** Hands answers to the input requests of `taskId` to the replica running it, once it took them. */
  update(taskId: string, inputResponses: Record<string, unknown>): Promise<void> {
    return this.updates.publish((seq) =>
      this.publish({ from: this.bus.replicaId, t: "update", taskId, inputResponses, seq }),
    );
  }

  async close(): Promise<void> {
    this.updates.close();
    await this.started;
    this.stop?.();
    this.stop = undefined;
  }

  private async publish(message: RelayMessage): Promise<number | undefined> {
    await this.started;
    return this.bus.publish(CHANNEL, JSON.stringify(message));
  }

  private receive(text: string): void {
    let message: RelayMessage;
    try {
      message = JSON.parse(text) as RelayMessage;
    } catch {
      return;
    }
    if (typeof message !== "object" || message === null || message.from === this.bus.replicaId) return;
    if (message.t === "updated") {
      if (message.to === this.bus.replicaId && typeof message.seq === "number")
        this.updates.acknowledged(message.seq);
      return;
    }
    if (typeof message.taskId !== "string") return;
    const running = this.runtime.running.get(message.taskId);
    if (message.t === "cancel") {
      running?.abort(`Task ${message.taskId} was cancelled`);
      return;
    }
    if (message.t !== "update") return;
    const acknowledge = () => {
      if (typeof message.seq === "number")
        void this.publish({
          from: this.bus.replicaId,
          t: "updated",
          to: message.from,
          seq: message.seq,
        }).catch(() => {});
    };
    if (running && typeof message.inputResponses === "object" && message.inputResponses !== null)
      running.answer(message.inputResponses).then(acknowledge, acknowledge);
    else acknowledge();
  }
}
