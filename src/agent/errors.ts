import type { AgentStep } from "./step.js";

/**
 * A chat model request failed: the HTTP status and an excerpt of the body when the server answered,
 * or the network error as `cause` when it could not be reached.
 */
export class ChatModelError extends Error {
  override name = "ChatModelError";
  /** The HTTP status, when the server answered. */
  readonly status: number | undefined;
  /** The start of the response body (at most 1000 characters), when there was one. */
  readonly body: string | undefined;

  constructor(message: string, options: { status?: number; body?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.body = options.body;
  }
}

/** The model was still calling tools when the agent's step limit was reached. */
export class MaxStepsError extends Error {
  override name = "MaxStepsError";
  /** Every step that ran, the last one included. */
  readonly steps: AgentStep[];

  constructor(maxSteps: number, steps: AgentStep[]) {
    const last = steps.at(-1)?.message.toolCalls?.map((call) => call.name) ?? [];
    super(
      `The agent stopped after ${maxSteps} step${maxSteps === 1 ? "" : "s"} without a final answer: ` +
        `the model kept calling tools${last.length > 0 ? ` (last: ${last.join(", ")})` : ""}. ` +
        "Raise maxSteps if the task needs more.",
    );
    this.steps = steps;
  }
}
