import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { modern } from "../../protocol/eras/modern.js";
import type { ServerCapabilities } from "../../protocol/types/lifecycle.js";
import { requireScopes, type Scopes } from "../auth/scopes.js";
import type { PromptRegistry } from "../registries/prompts.js";
import type { ResourceRegistry } from "../registries/resources.js";
import type { ToolRegistry } from "../registries/tools.js";
import type { RequestContext } from "../sessions/context.js";

/** Answers one request of a server; the context knows its session and era. */
export type DispatchHandler = (
  params: Record<string, unknown>,
  ctx: RequestContext,
) => object | Promise<object>;

/** One method a server answers: what it needs, who answers it, and what the stateless era adds. */
export interface DispatchRow {
  readonly method: string;
  /** The server capability the method belongs to; without it the method is unknown. */
  readonly capability: keyof ServerCapabilities | undefined;
  readonly handler: DispatchHandler;
  /** Whether stateless results of it carry caching hints. */
  readonly cacheable: boolean;
  /** For a method whose handler may ask for input (multi round-trip), the subject of its questions. */
  readonly asks: ((params: Record<string, unknown>) => unknown) | undefined;
  /**
   * For a method that uses one tool, resource or prompt, the scopes it needs of the caller and
   * what it is called in an error: checked before the handler runs.
   */
  readonly scopes: ((params: Record<string, unknown>) => { scopes: Scopes; what: string }) | undefined;
}

/** A table row for `method`; what the stateless era adds comes from the era. */
export function row(
  method: string,
  capability: keyof ServerCapabilities | undefined,
  handler: DispatchHandler,
  scopes?: DispatchRow["scopes"],
): DispatchRow {
  return {
    method,
    capability,
    handler,
    cacheable: modern.cacheable(method),
    asks: modern.askSubject(method),
    scopes,
  };
}

/** The error of a method whose capability the server did not declare: it is unknown. */
export function notOffered(method: string, capability: keyof ServerCapabilities): McpError {
  return new McpError(
    ErrorCode.MethodNotFound,
    `Method not found: ${method} (no ${String(capability)} capability)`,
  );
}

/** Refuses, before the handler runs, a request whose caller lacks a scope of what it uses. */
export function checkScopes(entry: DispatchRow, params: Record<string, unknown>, ctx: RequestContext): void {
  const { scopes, what } = entry.scopes!(params);
  if (scopes) requireScopes(ctx.auth, scopes, what);
}

/** The scopes of what a request uses (a tool, resource, prompt or completion reference), per kind. */
export function scopeReaders(tools: ToolRegistry, resources: ResourceRegistry, prompts: PromptRegistry) {
  const tool = (params: Record<string, unknown>) => ({
    scopes: tools.scopesOf(params.name),
    what: `tool ${String(params.name)}`,
  });
  const resource = (params: Record<string, unknown>) => ({
    scopes: resources.scopesOf(params.uri),
    what: `resource ${String(params.uri)}`,
  });
  const prompt = (params: Record<string, unknown>) => ({
    scopes: prompts.scopesOf(params.name),
    what: `prompt ${String(params.name)}`,
  });
  const completed = (params: Record<string, unknown>) => {
    const ref = (params.ref ?? {}) as { type?: unknown; name?: unknown; uri?: unknown };
    if (ref.type === "ref/prompt") return prompt(ref);
    return { scopes: resources.templateScopes(ref.uri), what: `resource template ${String(ref.uri)}` };
  };
  return { tool, resource, prompt, completed };
}
