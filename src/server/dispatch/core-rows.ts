import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { ServerCapabilities } from "../../protocol/types/lifecycle.js";
import { visibleTo } from "../auth/scopes.js";
import { completeRequest } from "../registries/completion.js";
import type { PromptRegistry } from "../registries/prompts.js";
import type { ResourceRegistry } from "../registries/resources.js";
import type { ToolRegistry } from "../registries/tools.js";
import type { RequestContext } from "../sessions/context.js";
import type { ServerSession } from "../sessions/session.js";
import type { Subscriptions } from "../sessions/subscriptions.js";
import { type DispatchRow, row, scopeReaders } from "./dispatch.js";

/** What the core methods of a server answer from. */
interface CoreRowsHost {
  readonly tools: ToolRegistry;
  readonly resources: ResourceRegistry;
  readonly prompts: PromptRegistry;
  readonly subscriptions: Subscriptions;
  readonly supportedVersions: readonly string[];
  readonly instructions: string | undefined;
  /** Whether lists show a caller only what its token's scopes allow. */
  readonly hideUnauthorized: boolean;
  capabilities(): ServerCapabilities;
}

/** Every core method a server answers, with the capability it needs and the scopes of what it uses. */
export function coreRows(host: CoreRowsHost): DispatchRow[] {
  const { tools, resources, prompts, subscriptions } = host;
  const { tool, resource, prompt, completed } = scopeReaders(tools, resources, prompts);
  // What a list shows its caller: everything, or (`hideUnauthorized`) what its token's scopes allow.
  const visible = (ctx: RequestContext) => visibleTo(ctx.auth, host.hideUnauthorized);
  return [
    row("initialize", undefined, (params, ctx) => ctx.session.initialize(params)),
    row("logging/setLevel", undefined, (params, ctx) => ctx.session.setLevel(params.level)),
    row("tools/list", "tools", (params, ctx) => tools.list(params.cursor, ctx.revision!, visible(ctx))),
    row("tools/call", "tools", (params, ctx) => tools.call(params, ctx), tool),
    row("resources/list", "resources", (params, ctx) =>
      resources.list(params.cursor, ctx, ctx.revision!, visible(ctx)),
    ),
    row("resources/templates/list", "resources", (params, ctx) =>
      resources.listTemplates(params.cursor, ctx.revision!, visible(ctx)),
    ),
    row("resources/read", "resources", (params, ctx) => resources.read(params, ctx), resource),
    row(
      "resources/subscribe",
      "resources",
      (params, ctx) => subscribe(resources, ctx.session, params.uri),
      resource,
    ),
    row("resources/unsubscribe", "resources", (params, ctx) => {
      if (ctx.session.subscriptions.delete(String(params.uri))) ctx.session.saveShared();
      return {};
    }),
    row("prompts/list", "prompts", (params, ctx) => prompts.list(params.cursor, ctx.revision!, visible(ctx))),
    row("prompts/get", "prompts", (params, ctx) => prompts.get(params, ctx), prompt),
    row(
      "completion/complete",
      "completions",
      (params) => completeRequest(params, { prompts, resources }),
      completed,
    ),
    row("server/discover", undefined, () => discover(host)),
    row("subscriptions/listen", undefined, (params, ctx) =>
      subscriptions.listen(params, ctx.request, host.capabilities()),
    ),
  ];
}

/** The answer to `server/discover`. */
function discover(host: CoreRowsHost): object {
  const result: Record<string, unknown> = {
    supportedVersions: [...host.supportedVersions],
    capabilities: host.capabilities(),
  };
  if (host.instructions !== undefined) result.instructions = host.instructions;
  return result;
}

function subscribe(resources: ResourceRegistry, session: ServerSession, uri: unknown): object {
  if (typeof uri !== "string")
    throw new McpError(ErrorCode.InvalidParams, 'resources/subscribe needs a string "uri"');
  if (!resources.has(uri))
    throw new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
  if (!session.subscriptions.has(uri)) {
    session.subscriptions.add(uri);
    session.saveShared();
  }
  return {};
}
