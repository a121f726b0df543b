import type { Attributes, SpanKind as SpanKindValue } from "@opentelemetry/api";
import type { AgentActivity, AgentActivitySpan, AgentTracer } from "../agent/index.js";
import { VERSION } from "../version.js";
import { api } from "./api.js";
import { ATTR, recordError } from "./attributes.js";
import { ensureContextManager } from "./context.js";
import type { OtelOptions } from "./options.js";

const { context, SpanKind, SpanStatusCode, trace } = api;

/** Options of `agentTracer`. */
export interface AgentTracerOptions extends Pick<OtelOptions, "tracerProvider"> {
  /** `gen_ai.agent.name`, and the run span's name `invoke_agent {name}`. */
  agentName?: string;
  /** `gen_ai.request.model`, and the model spans' name `chat {model}`. */
  model?: string;
}

/**
 * Traces an `Agent` with the GenAI semantic conventions: an `invoke_agent` span per run, a `chat`
 * span per model call and an `execute_tool` span per tool call, under which the MCP client spans
 * of the call are.
 *
 * @example
 * const agent = new Agent({ model, tools: mcp.tools(), tracer: agentTracer({ agentName: "helper" }) });
 */
export function agentTracer(options: AgentTracerOptions = {}): AgentTracer {
  ensureContextManager();
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer("mcpkit", VERSION);
  const { agentName, model } = options;
  const describe = (
    activity: AgentActivity,
  ): { name: string; kind: SpanKindValue; attributes: Attributes } => {
    if (activity.kind === "run") {
      const attributes: Attributes = { [ATTR.operation]: "invoke_agent" };
      if (agentName !== undefined) attributes["gen_ai.agent.name"] = agentName;
      return {
        name: agentName ? `invoke_agent ${agentName}` : "invoke_agent",
        kind: SpanKind.INTERNAL,
        attributes,
      };
    }
    if (activity.kind === "model") {
      const attributes: Attributes = { [ATTR.operation]: "chat", "mcpkit.agent.step": activity.step };
      if (model !== undefined) attributes["gen_ai.request.model"] = model;
      return { name: model ? `chat ${model}` : "chat", kind: SpanKind.CLIENT, attributes };
    }
    return {
      name: `execute_tool ${activity.tool}`,
      kind: SpanKind.INTERNAL,
      attributes: {
        [ATTR.operation]: "execute_tool",
        [ATTR.toolName]: activity.tool,
        "gen_ai.tool.call.id": activity.callId,
        "mcpkit.agent.step": activity.step,
      },
    };
  };
  return {
    async run(activity, fn) {
      const { name, kind, attributes } = describe(activity);
      const span = tracer.startSpan(name, { kind, attributes });
      const handle: AgentActivitySpan = {
        set: (more) => span.setAttributes(more),
        fail: (reason) => {
          span.setAttribute(ATTR.errorType, reason);
          span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
        },
      };
      try {
        return await context.with(trace.setSpan(context.active(), span), () => fn(handle));
      } catch (error) {
        recordError(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  };
}
