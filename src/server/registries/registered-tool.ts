import { exportJsonSchema, intern } from "../../protocol/schema/json-schema.js";
import { isStandardSchema } from "../../protocol/schema/standard.js";
import { type Validate, validatorOf } from "../../protocol/schema/validate.js";
import type { SchemaLike } from "../../protocol/schema/validator.js";
import { deferrableZod, exportZod, type ZodSchema } from "../../protocol/schema/zod-export.js";
import type { Icon, Meta } from "../../protocol/types/base.js";
import type { JsonSchema, Tool, ToolAnnotations } from "../../protocol/types/tools.js";
import { type Scopes, scopesOption } from "../auth/scopes.js";
import type { ToolConfig, ToolHandler, ToolTaskOptions } from "./tool-config.js";

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
export class RegisteredTool {
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
export function registeredTool(name: string, config: ToolConfig, handler: ToolHandler<any>): RegisteredTool {
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
