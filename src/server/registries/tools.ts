import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { adaptTool } from "../../protocol/revisions/adapt.js";
import type { Revision } from "../../protocol/revisions/revision.js";
import type { CallToolResult, ListToolsResult, Tool } from "../../protocol/types/tools.js";
import { type ParamHeader, paramHeadersOf } from "../../transports/http/shared/param-headers.js";
import type { Scopes, Visible } from "../auth/scopes.js";
import type { RequestContext } from "../sessions/context.js";
import { Paginator } from "./paginate.js";
import { type RegisteredTool, registeredTool } from "./registered-tool.js";
import type { ToolConfig, ToolHandler, ToolTaskOptions } from "./tool-config.js";
import { isPromiseLike, runTool } from "./tool-run.js";

/** The tools of one server: registration, `tools/list` and `tools/call`. */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly pages: Paginator<RegisteredTool>;

  constructor(
    pageSize: number,
    private readonly onChange: () => void,
  ) {
    this.pages = new Paginator(
      pageSize,
      () => this.tools.values(),
      (tool) => tool.name,
    );
  }

  get size(): number {
    return this.tools.size;
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  add(name: string, config: ToolConfig<any, any>, handler: ToolHandler<any>): void {
    if (typeof name !== "string" || name.length === 0) throw new TypeError("A tool needs a non-empty name");
    if (this.tools.has(name)) throw new Error(`A tool named "${name}" is already registered`);
    this.tools.set(name, registeredTool(name, config, handler));
    this.pages.invalidate();
    this.onChange();
  }

  remove(name: string): boolean {
    const removed = this.tools.delete(name);
    if (removed) {
      this.pages.invalidate();
      this.onChange();
    }
    return removed;
  }

  /** A tool as it is listed and its task option, or `undefined` for an unknown one. */
  describe(name: string): { description: Tool; task: ToolTaskOptions | undefined } | undefined {
    const tool = this.tools.get(name);
    return tool && { description: tool.description, task: tool.task };
  }

  /** The `Mcp-Param-*` headers a tool's arguments are mirrored in (`x-mcp-header`). */
  paramHeaders(name: string): ParamHeader[] | undefined {
    const tool = this.tools.get(name);
    if (!tool) return undefined;
    const headers = paramHeadersOf(tool.description.inputSchema);
    return typeof headers === "string" || headers.length === 0 ? undefined : headers;
  }

  /** The scopes a tool needs, if it is known. */
  scopesOf(name: unknown): Scopes {
    return typeof name === "string" ? this.tools.get(name)?.scopes : undefined;
  }

  /** Every scope some tool needs. */
  *declaredScopes(): Iterable<string> {
    for (const tool of this.tools.values()) if (tool.scopes) yield* tool.scopes;
  }

  list(cursor: unknown, revision: Revision, visible?: Visible): ListToolsResult {
    const { items, nextCursor } = this.pages.page(cursor, visible && ((tool) => visible(tool.scopes)));
    const result: ListToolsResult = { tools: items.map((tool) => adaptTool(tool.description, revision)) };
    if (nextCursor !== undefined) result.nextCursor = nextCursor;
    return result;
  }

  /**
   * Runs a tool. Synchronous all the way when validation and the handler are (no microtask hops
   * on the hot path); a promise as soon as one of them is not.
   */
  call(params: Record<string, unknown>, ctx: RequestContext): CallToolResult | Promise<CallToolResult> {
    const name = params.name;
    if (typeof name !== "string")
      throw new McpError(ErrorCode.InvalidParams, 'tools/call needs a string "name"');
    const tool = this.tools.get(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { name });
    const checked = tool.input(params.arguments ?? {});
    return isPromiseLike(checked)
      ? Promise.resolve(checked).then((valid) => runTool(tool, valid, ctx))
      : runTool(tool, checked, ctx);
  }
}
