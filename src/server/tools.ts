import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import { adaptContent, adaptTool } from "../protocol/revisions/adapt.js";
import type { Revision } from "../protocol/revisions/revision.js";
import type { InferOutput, StandardSchemaV1 } from "../protocol/schema/standard.js";
import {
  type CompiledSchema,
  compileSchema,
  type SchemaLike,
  type Validation,
} from "../protocol/schema/validator.js";
import type { Icon, Meta } from "../protocol/types/base.js";
import type {
  CallToolResult,
  JsonSchema,
  ListToolsResult,
  Tool,
  ToolAnnotations,
} from "../protocol/types/tools.js";
import { type ParamHeader, paramHeadersOf } from "../transports/http/param-headers.js";
import type { RequestContext } from "./context.js";
import { Paginator } from "./paginate.js";
import { type ToolReturn, toCallToolResult, toolError } from "./tool-result.js";

/** The arguments type a tool's input schema describes. */
export type ToolArgs<S> = S extends StandardSchemaV1 ? InferOutput<S> : Record<string, any>;

/** How a tool describes itself. */
export interface ToolConfig<
  I extends SchemaLike | undefined = SchemaLike | undefined,
  O extends SchemaLike | undefined = SchemaLike | undefined,
> {
  title?: string;
  description?: string;
  /** The arguments: a zod v4 (or other Standard Schema) object, or a JSON Schema with `type: "object"`. */
  input?: I;
  /** The structured result; results then carry `structuredContent` checked against it. */
  output?: O;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Meta;
}

/** A tool's implementation: gets the validated arguments and the request context. */
export type ToolHandler<Args> = (args: Args, ctx: RequestContext) => ToolReturn | Promise<ToolReturn>;

const EMPTY_OBJECT_SCHEMA: CompiledSchema = {
  jsonSchema: { type: "object", properties: {} },
  validate: (value) => ({ ok: true, value }),
};

/** A registered tool; its wire description is built once, on first listing. */
class RegisteredTool {
  private compiledInput: CompiledSchema | undefined;
  private compiledOutput: CompiledSchema | undefined;
  private described: Tool | undefined;

  constructor(
    readonly name: string,
    private readonly config: ToolConfig,
    readonly handler: ToolHandler<any>,
  ) {}

  get input(): CompiledSchema {
    this.compiledInput ??= this.config.input
      ? compileSchema(this.config.input, "input")
      : EMPTY_OBJECT_SCHEMA;
    return this.compiledInput;
  }

  get output(): CompiledSchema | undefined {
    if (!this.config.output) return undefined;
    this.compiledOutput ??= compileSchema(this.config.output, "output");
    return this.compiledOutput;
  }

  /** Fails early, at registration, on a schema MCP cannot use. */
  check(): void {
    assertObjectSchema(this.name, "input", this.input.jsonSchema);
    if (this.output) assertObjectSchema(this.name, "output", this.output.jsonSchema);
  }

  describe(): Tool {
    if (this.described) return this.described;
    const { title, description, annotations, icons, _meta } = this.config;
    const tool: Tool = { name: this.name, inputSchema: this.input.jsonSchema as Tool["inputSchema"] };
    if (title !== undefined) tool.title = title;
    if (description !== undefined) tool.description = description;
    if (this.output) tool.outputSchema = this.output.jsonSchema as Tool["inputSchema"];
    if (annotations !== undefined) tool.annotations = annotations;
    if (icons !== undefined) tool.icons = icons;
    if (_meta !== undefined) tool._meta = _meta;
    this.described = tool;
    return tool;
  }
}

function assertObjectSchema(tool: string, which: string, schema: JsonSchema): void {
  if (schema.type !== "object") {
    throw new TypeError(`The ${which} schema of tool "${tool}" must describe an object (type "object")`);
  }
}

/** The tools of one server: registration, `tools/list` and `tools/call`. */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly pages: Paginator<RegisteredTool>;

  constructor(
    pageSize: number,
    private readonly onChange: () => void,
  ) {
    this.pages = new Paginator(pageSize, () => this.tools);
  }

  get size(): number {
    return this.tools.size;
  }

  add(name: string, config: ToolConfig<any, any>, handler: ToolHandler<any>): void {
    if (typeof name !== "string" || name.length === 0) throw new TypeError("A tool needs a non-empty name");
    if (this.tools.has(name)) throw new Error(`A tool named "${name}" is already registered`);
    const tool = new RegisteredTool(name, config, handler);
    tool.check();
    this.tools.set(name, tool);
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

  /** The `Mcp-Param-*` headers a tool's arguments are mirrored in (`x-mcp-header`). */
  paramHeaders(name: string): ParamHeader[] | undefined {
    const tool = this.tools.get(name);
    if (!tool) return undefined;
    const headers = paramHeadersOf(tool.input.jsonSchema);
    return typeof headers === "string" || headers.length === 0 ? undefined : headers;
  }

  list(cursor: unknown, revision: Revision): ListToolsResult {
    const { items, nextCursor } = this.pages.page(cursor);
    const result: ListToolsResult = { tools: items.map((tool) => adaptTool(tool.describe(), revision)) };
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
    const checked = tool.input.validate(params.arguments ?? {});
    return isPromiseLike(checked)
      ? Promise.resolve(checked).then((valid) => run(tool, valid, ctx))
      : run(tool, checked, ctx);
  }
}

function run(
  tool: RegisteredTool,
  checked: Validation,
  ctx: RequestContext,
): CallToolResult | Promise<CallToolResult> {
  if (!checked.ok) return toolError(`Invalid arguments for tool ${tool.name}: ${checked.message}`);
  let returned: ToolReturn | PromiseLike<ToolReturn>;
  try {
    returned = tool.handler(checked.value, ctx);
  } catch (error) {
    return failed(error);
  }
  return isPromiseLike(returned)
    ? Promise.resolve(returned).then((value) => finish(tool, value, ctx), failed)
    : finish(tool, returned, ctx);
}

/** A handler's exception is a tool error for the model to see; an McpError is a protocol error. */
function failed(error: unknown): CallToolResult {
  if (error instanceof McpError) throw error;
  return toolError(error instanceof Error ? error.message : String(error));
}

function finish(
  tool: RegisteredTool,
  returned: ToolReturn,
  ctx: RequestContext,
): CallToolResult | Promise<CallToolResult> {
  const output = tool.output;
  const result = toCallToolResult(returned, output !== undefined);
  if (!output || result.isError) return forRevision(result, ctx.session.revision);
  return checkStructured(tool.name, output, result).then(() => forRevision(result, ctx.session.revision));
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

/** The result as the session's revision can carry it. */
function forRevision(result: CallToolResult, revision: Revision | undefined): CallToolResult {
  if (!revision) return result;
  const content = adaptContent(result.content, revision);
  if (revision.structuredToolOutput || result.structuredContent === undefined) {
    return content === result.content ? result : { ...result, content };
  }
  const { structuredContent: _dropped, ...rest } = result;
  return { ...rest, content };
}

async function checkStructured(name: string, output: CompiledSchema, result: CallToolResult): Promise<void> {
  if (result.structuredContent === undefined) {
    throw new McpError(
      ErrorCode.InternalError,
      `Tool ${name} declares an output schema but returned no structured content`,
    );
  }
  const checked = await output.validate(result.structuredContent);
  if (!checked.ok) {
    throw new McpError(
      ErrorCode.InternalError,
      `Tool ${name} returned structured content that does not match its output schema: ${checked.message}`,
    );
  }
}
