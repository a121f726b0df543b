/**
 * Running a tool's handler on validated arguments, and its return value as the `tools/call`
 * result: a thrown error is a tool error (an `McpError` a protocol error), structured content is
 * checked against the output schema, and the result is fitted to the request's revision.
 */
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { adaptContent } from "../../protocol/revisions/adapt.js";
import { carriesStructuredOutput, type Revision } from "../../protocol/revisions/revision.js";
import type { Validate } from "../../protocol/schema/validate.js";
import type { Validation } from "../../protocol/schema/validator.js";
import type { CallToolResult } from "../../protocol/types/tools.js";
import type { RequestContext } from "../sessions/context.js";
import { type ToolReturn, toCallToolResult, toolError } from "./tool-result.js";

/** What running a tool needs of it. */
interface RunnableTool {
  readonly name: string;
  readonly handler: (args: any, ctx: RequestContext) => ToolReturn | PromiseLike<ToolReturn>;
  readonly output: Validate | undefined;
  readonly outputKind: "none" | "object" | "any";
}

export function runTool(
  tool: RunnableTool,
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
  tool: RunnableTool,
  returned: ToolReturn,
  ctx: RequestContext,
): CallToolResult | Promise<CallToolResult> {
  const output = tool.output;
  const result = toCallToolResult(returned, tool.outputKind);
  if (!output || result.isError) return forRevision(result, ctx.revision);
  return checkStructured(tool.name, output, result).then(() => forRevision(result, ctx.revision));
}

export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

/** The result as the request's revision can carry it. */
function forRevision(result: CallToolResult, revision: Revision | undefined): CallToolResult {
  if (!revision) return result;
  const content = adaptContent(result.content, revision);
  const structured = result.structuredContent;
  const fits =
    structured === undefined ||
    carriesStructuredOutput(
      revision,
      typeof structured === "object" && structured !== null && !Array.isArray(structured),
    );
  if (fits) return content === result.content ? result : { ...result, content };
  // Left out where the revision cannot carry it; the text content still says it.
  const { structuredContent: _dropped, ...rest } = result;
  return { ...rest, content };
}

async function checkStructured(name: string, output: Validate, result: CallToolResult): Promise<void> {
  if (result.structuredContent === undefined) {
    throw new McpError(
      ErrorCode.InternalError,
      `Tool ${name} declares an output schema but returned no structured content`,
    );
  }
  const checked = await output(result.structuredContent);
  if (!checked.ok) {
    throw new McpError(
      ErrorCode.InternalError,
      `Tool ${name} returned structured content that does not match its output schema: ${checked.message}`,
    );
  }
}
