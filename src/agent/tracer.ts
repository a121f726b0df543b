/**
 * What an agent reports to a tracer, without depending on one: `mcpkit/otel`'s `agentTracer()`
 * implements it with OpenTelemetry spans; anything else can too.
 */

/** One unit of an agent's work. */
export type AgentActivity =
  | { kind: "run" }
  | { kind: "model"; step: number }
  | { kind: "tool"; step: number; tool: string; callId: string };

/** What a traced activity can add once it knows more (token counts, finish reason, a tool's error). */
export interface AgentActivitySpan {
  set(attributes: Record<string, string | number | boolean | string[]>): void;
  /** The activity ended in an error that is not thrown (a tool's `isError` result, a failed call). */
  fail(reason: string): void;
}

/**
 * Runs an agent's activities inside spans. `run` must call `fn` exactly once and return what it
 * returns (or throw what it throws); what `fn` starts runs under the activity's span.
 */
export interface AgentTracer {
  run<T>(activity: AgentActivity, fn: (span: AgentActivitySpan) => Promise<T>): Promise<T>;
}

const untraced: AgentActivitySpan = { set() {}, fail() {} };

/** Runs `fn` in the tracer's span, or as it is without a tracer. */
export function traced<T>(
  tracer: AgentTracer | undefined,
  activity: AgentActivity,
  fn: (span: AgentActivitySpan) => Promise<T>,
): Promise<T> {
  return tracer ? tracer.run(activity, fn) : fn(untraced);
}
