/**
 * The proxy's typed view of a tool call, for its steps: each step (access, policy, audit, the
 * caller's own) is a `(ctx, next)` middleware of the server's `tools/call`, at its place of the
 * server's `MIDDLEWARE_ORDER`, composed by the server with all its other middleware.
 */
import type { CallToolResult, ToolAnnotations } from "../protocol/types/tools.js";
import type { RequestContext } from "../server/sessions/context.js";

/** How a call ended, as the audit log records it: `denied` is a refusal of the proxy's policy. */
export type CallOutcome = "ok" | "tool_error" | "error" | "cancelled" | "denied" | "abandoned";

/** One call through the proxy, as each middleware sees it. */
export interface ToolCallContext {
  /** The client's request: its caller (`auth`), capabilities, signal, and ways to ask the user. */
  readonly request: RequestContext;
  /** The upstream the tool is on (its name in the config; for a bridge, the upstream's name). */
  readonly server: string;
  /** The tool's name on the upstream. */
  readonly tool: string;
  /** The name clients call it by. */
  readonly name: string;
  /** The arguments; a middleware may replace them before `next`. */
  arguments: Record<string, unknown>;
  /** The upstream's annotations of the tool, to be believed only if `trusted`. */
  readonly annotations: ToolAnnotations | undefined;
  /** Whether the upstream is trusted (its entry says `"trusted": true`). */
  readonly trusted: boolean;
  /** The result's size in bytes of JSON, set by the forwarding step when it measured it (a large result). */
  resultSize?: number;
  /** Set by a middleware that refused the call: the result it returns is the proxy's, not the tool's. */
  refused?: string;
}

/**
 * A step of a call: do something before or after `next()`, or answer without calling it. The
 * proxy runs each as a `tools/call` server middleware whose `ctx` is the call's typed view.
 */
export type ToolCallMiddleware = (
  ctx: ToolCallContext,
  next: () => Promise<CallToolResult>,
) => Promise<CallToolResult>;

/** What a registered name calls, as a call's context takes it from its tool's route. */
export type CallRoute = Pick<ToolCallContext, "server" | "tool" | "name" | "annotations" | "trusted">;

/**
 * A call's context, every field written out in one order. Built with a spread (`{ ...route,
 * request, arguments }`), V8 gave every call's context a hidden class of its own, and each field
 * added later (`resultSize`) another: a few thousand instructions a call.
 */
export function callContext(
  from: CallRoute & Partial<ToolCallContext>,
  request: RequestContext,
  args: Record<string, unknown>,
): ToolCallContext {
  return {
    request,
    server: from.server,
    tool: from.tool,
    name: from.name,
    arguments: args,
    annotations: from.annotations,
    trusted: from.trusted,
    resultSize: from.resultSize,
    refused: from.refused,
  };
}

/** A result the model reads as the call's failure: what the proxy says instead of the tool. */
export function refusal(ctx: ToolCallContext, text: string): CallToolResult {
  ctx.refused = text;
  return { content: [{ type: "text", text }], isError: true };
}
