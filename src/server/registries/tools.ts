import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { adaptTool } from "../../protocol/revisions/adapt.js";
import type { Revision } from "../../protocol/revisions/revision.js";
import { exportJsonSchema, intern } from "../../protocol/schema/json-schema.js";
import { type InferOutput, isStandardSchema, type StandardSchemaV1 } from "../../protocol/schema/standard.js";
import { type Validate, validatorOf } from "../../protocol/schema/validate.js";
import type { SchemaLike } from "../../protocol/schema/validator.js";
import { deferrableZod, exportZod, type ZodSchema } from "../../protocol/schema/zod-export.js";
import type { Icon, Meta } from "../../protocol/types/base.js";
import type {
  CallToolResult,
  JsonSchema,
  ListToolsResult,
  Tool,
  ToolAnnotations,
} from "../../protocol/types/tools.js";
import { type ParamHeader, paramHeadersOf } from "../../transports/http/shared/param-headers.js";
import { type Scopes, scopesOption, type Visible } from "../auth/scopes.js";
import type { RequestContext } from "../sessions/context.js";
import { Paginator } from "./paginate.js";
import type { ToolReturn } from "./tool-result.js";
import { isPromiseLike, runTool } from "./tool-run.js";

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
  /**
   * The scopes a caller's access token must grant to call the tool (and, with `hideUnauthorized`,
   * to see it listed); checked before the handler runs. A call without a verified token is refused.
   */
  scopes?: string[];
  /**
   * Whether the tool runs as a task (listed as `execution.taskSupport`; the server needs the tasks
   * extension): `"optional"` when the caller can take a task, `"required"` refuses callers that
   * cannot. Default `"forbidden"`: always answered inline. See `ToolTaskOptions` for the object form.
   */
  task?: TaskSupport | ToolTaskOptions;
}

/** Whether a tool runs as a task (the spec's `execution.taskSupport`). */
export type TaskSupport = "forbidden" | "optional" | "required";

/** How a task-capable tool starts its task. */
export interface ToolTaskOptions {
  support: "optional" | "required";
  /**
   * The handler runs within the call, where it may ask for input by multi round-trip, until it
   * calls `ctx.startTask()`; the call then answers with the task. Default false: the task starts
   * before the handler runs.
   */
  startedByHandler?: boolean;
}

/**
 * What a tool's handler returns: with a Standard Schema `output` (zod…), the structured value it
 * describes (or a whole `CallToolResult`); otherwise a string, content blocks, a result or a value.
 */
export type ToolResultOf<O> = O extends StandardSchemaV1 ? InferOutput<O> | CallToolResult : ToolReturn;

/** A tool's implementation: gets the validated arguments and the request context. */
export type ToolHandler<Args, Returns = ToolReturn> = (
  args: Args,
  ctx: RequestContext,
) => Returns | Promise<Returns>;

const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: "object", properties: {} };
const accept: Validate = (value) => ({ ok: true, value });

/** A tool's validators, built on its first call: most listed tools are never called. */
interface Validators {
  readonly input: Validate;
  readonly output: Validate | undefined;
}

/**
 * A registered tool: what `tools/list` sends, the handler, and what its validators are built from.
 * A zod schema whose export cannot fail is exported when the tool is first listed (or called with
 * `Mcp-Param-*` headers), not at registration: see `deferrableZod`.
 */
class RegisteredTool {
  private validators: Validators | undefined;
  private deferred: { input?: ZodSchema; output?: ZodSchema } | undefined;

  constructor(
    private readonly wire: ToolDescription,
    readonly handler: ToolHandler<any>,
    /** The Standard Schema given, or the JSON Schema listed; `undefined` when there is none. */
    private readonly inputSchema: SchemaLike | undefined,
    private readonly outputSchema: SchemaLike | undefined,
    readonly scopes: Scopes,
    readonly task: ToolTaskOptions | undefined,
    deferred: { input?: ZodSchema; output?: ZodSchema } | undefined,
  ) {
    this.deferred = deferred;
  }

  get name(): string {
    return this.wire.name;
  }

  /** The tool as listed, its deferred schemas exported on first use. */
  get description(): Tool {
    const deferred = this.deferred;
    if (deferred) {
      if (deferred.input)
        this.wire.inputSchema = intern(exportZod(deferred.input, "input")) as Tool["inputSchema"];
      if (deferred.output)
        this.wire.outputSchema = intern(exportZod(deferred.output, "output")) as Tool["inputSchema"];
      this.deferred = undefined;
    }
    return this.wire;
  }

  get input(): Validate {
    this.validators ??= this.compile();
    return this.validators.input;
  }

  get output(): Validate | undefined {
    this.validators ??= this.compile();
    return this.validators.output;
  }

  /** Whether the tool declares an output schema, and whether that schema is of type object. */
  get outputKind(): "none" | "object" | "any" {
    if (this.outputSchema === undefined) return "none";
    return this.description.outputSchema?.type === "object" ? "object" : "any";
  }

  private compile(): Validators {
    return {
      input: this.inputSchema ? validatorOf(this.inputSchema) : accept,
      output: this.outputSchema && validatorOf(this.outputSchema),
    };
  }
}

/**
 * A tool's wire description: the fields given, in the order they are listed. A class rather than
 * a literal grown field by field, so that V8 keeps every field in the object itself (a grown
 * literal spills them into a second object: 32 bytes more per tool).
 */
class ToolDescription implements Tool {
  declare name: string;
  declare inputSchema: Tool["inputSchema"];
  declare title?: string;
  declare description?: string;
  declare outputSchema?: Tool["inputSchema"];
  declare annotations?: ToolAnnotations;
  declare icons?: Icon[];
  declare execution?: Tool["execution"];
  declare _meta?: Meta;

  constructor(
    name: string,
    /** `undefined` while it waits for its first listing, like a pending output schema. */
    inputSchema: JsonSchema | undefined,
    outputSchema: JsonSchema | undefined,
    config: ToolConfig,
    outputPending: boolean,
  ) {
    const { title, description, annotations, icons, _meta } = config;
    const task = typeof config.task === "object" ? config.task.support : config.task;
    this.name = name;
    this.inputSchema = inputSchema as Tool["inputSchema"];
    if (title !== undefined) this.title = title;
    if (description !== undefined) this.description = description;
    // A pending output schema keeps its place: fields are listed in the order they are set.
    if (outputSchema !== undefined || outputPending) this.outputSchema = outputSchema as Tool["inputSchema"];
    if (annotations !== undefined) this.annotations = annotations;
    if (icons !== undefined) this.icons = icons;
    if (task !== undefined && task !== "forbidden") this.execution = { taskSupport: task };
    if (_meta !== undefined) this._meta = _meta;
  }
}

/**
 * Builds a tool from its configuration, failing early, at registration, on a schema MCP cannot
 * use. The configuration itself is not kept: only what listing and validation need.
 */
function registeredTool(name: string, config: ToolConfig, handler: ToolHandler<any>): RegisteredTool {
  const { input, output } = config;
  const deferredInput = deferrableZod(input, "input");
  const deferredOutput = deferrableZod(output, "output");
  const inputSchema = deferredInput
    ? undefined
    : input
      ? wireSchema(name, "input", input)
      : EMPTY_OBJECT_SCHEMA;
  const outputSchema = output && !deferredOutput ? wireSchema(name, "output", output) : undefined;
  const wire = new ToolDescription(name, inputSchema, outputSchema, config, deferredOutput !== undefined);
  // A Standard Schema validates (and may transform) itself; a JSON Schema is checked as listed.
  return new RegisteredTool(
    wire,
    handler,
    !input || isStandardSchema(input) ? input : inputSchema,
    isStandardSchema(output) ? output : outputSchema,
    scopesOption(config.scopes, `tool "${name}"`),
    taskOption(name, config.task),
    deferredInput || deferredOutput ? { input: deferredInput, output: deferredOutput } : undefined,
  );
}

/** A tool's task option as an object; `undefined` for a tool that never runs as a task. */
function taskOption(name: string, task: ToolConfig["task"]): ToolTaskOptions | undefined {
  const support = typeof task === "object" && task !== null ? task.support : task;
  if (support === undefined || support === "forbidden") return undefined;
  if (support !== "optional" && support !== "required") {
    throw new TypeError(
      `The task option of tool "${name}" must be "forbidden", "optional" or "required"; got ${JSON.stringify(support)}`,
    );
  }
  return typeof task === "object" ? { ...task } : { support };
}

/**
 * The JSON Schema listed for a tool's input or output, shared with every equal one. Arguments are
 * always an object; since 2026-07-28 an output may be any JSON value (older revisions list only
 * object outputs, see `adaptTool`).
 */
function wireSchema(tool: string, which: "input" | "output", schema: SchemaLike): JsonSchema {
  const json = isStandardSchema(schema) ? exportJsonSchema(schema, which) : schema;
  if (which === "input" && json.type !== "object") {
    throw new TypeError(`The input schema of tool "${tool}" must describe an object (type "object")`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new TypeError(`The output schema of tool "${tool}" must be a JSON Schema object`);
  }
  return intern(json);
}

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
