import type { InferOutput, StandardSchemaV1 } from "../../protocol/schema/standard.js";
import type { SchemaLike } from "../../protocol/schema/validator.js";
import type { Icon, Meta } from "../../protocol/types/base.js";
import type { CallToolResult, ToolAnnotations } from "../../protocol/types/tools.js";
import type { RequestContext } from "../sessions/context.js";
import type { ToolReturn } from "./tool-result.js";

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
