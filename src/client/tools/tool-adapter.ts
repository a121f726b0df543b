import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { RequestOptions } from "../../protocol/engine/peer.js";
import {
  compileSchema,
  type InferOutput,
  type SchemaLike,
  type StandardSchemaV1,
} from "../../protocol/schema/index.js";
import type { Progress } from "../../protocol/types/base.js";
import type { ContentBlock } from "../../protocol/types/content.js";
import type { JsonSchema, Tool as McpToolDescription } from "../../protocol/types/tools.js";
import type { AgentTool, ToolInvokeOptions, ToolOutput } from "./tool.js";
import { ToolResult } from "./tool-result.js";

/** The one method an MCP tool needs: an `McpClient`, or a server of a `MultiServerClient`. */
export interface ToolCaller {
  callTool(name: string, args: Record<string, unknown>, options?: RequestOptions): Promise<ToolResult>;
}

/** What `asTools` needs of a client: its tool listing, and calls. */
export interface ToolLister extends ToolCaller {
  listTools(): Promise<McpToolDescription[]>;
}

/** How an MCP tool behaves as an `AgentTool`. */
export interface McpToolOptions {
  /** The name the model sees; default the MCP tool's name. */
  name?: string;
  /** Per-call timeout in ms; default the client's (`requestTimeout`, 60 s). */
  timeout?: number;
  /** Restart the timeout whenever the server reports progress; default `true`. */
  resetTimeoutOnProgress?: boolean;
  /** The hard cap on one call, progress or not, in ms; default 10 minutes (never below `timeout`). */
  maxTotalTimeout?: number;
  /** Throw a `ToolError` for an `isError` result instead of returning it; default `false`. */
  throwOnToolError?: boolean;
}

/** Options of `asTools`: defaults for every tool, and overrides per MCP tool name. */
export interface AsToolsOptions extends Omit<McpToolOptions, "name"> {
  tools?: Record<string, McpToolOptions>;
}

/** The default hard cap of one call, whatever progress arrives. */
export const DEFAULT_MAX_TOTAL_TIMEOUT = 600_000;

/** A tool that reported a failure (`isError: true`), thrown only with `throwOnToolError`. */
export class ToolError extends Error {
  override readonly name = "ToolError";
  constructor(
    /** The tool's name as the model sees it. */
    readonly tool: string,
    /** What the tool returned: `text` is the error the tool reported. */
    readonly result: ToolOutput,
  ) {
    super(`Tool ${tool} failed: ${result.text}`);
  }
}

/** An MCP tool as an `AgentTool`: what the server described, and where calls go. */
export interface McpTool extends AgentTool {
  /** The tool as the server listed it (its own name, annotations, output schema…). */
  readonly definition: McpToolDescription;
  /**
   * Calls the tool as `invoke` does (timeouts, progress, cancellation) and gives the server's
   * result as it came: for code that passes results on, such as a proxy, rather than to a model.
   * `isError` results resolve, whatever `throwOnToolError` says.
   */
  call(args: Record<string, unknown>, options?: ToolInvokeOptions): Promise<ToolResult>;
}

/** A tool result as the model should read it. */
export function toToolOutput(result: ToolResult, tool: string): ToolOutput {
  const isError = result.isError === true;
  let text = result.text();
  if (text === "" && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  if (text === "" && isError) text = `Tool ${tool} failed without saying why`;
  const output: ToolOutput = { text, content: result.content, isError };
  if (result.structuredContent !== undefined) output.structuredContent = result.structuredContent;
  if (result._meta !== undefined) output._meta = result._meta;
  return output;
}

function noProgress(): void {}

/**
 * One MCP tool as an `AgentTool`. `invoke` calls it with the caller's `signal` (aborting cancels the call
 * on the server), `onProgress` and `timeout`; the timeout restarts on progress up to
 * `maxTotalTimeout`. A tool's own failure (`isError`) comes back as a `ToolOutput` with
 * `isError: true` and the error text, for the model to read, or throws a `ToolError` with
 * `throwOnToolError`. Protocol and transport failures reject with an `McpError`.
 */
export function mcpTool(caller: ToolCaller, tool: McpToolDescription, options: McpToolOptions = {}): McpTool {
  const name = options.name ?? tool.name;
  const cap = options.maxTotalTimeout ?? DEFAULT_MAX_TOTAL_TIMEOUT;
  const resetTimeoutOnProgress = options.resetTimeoutOnProgress ?? true;
  const call = (
    args: Record<string, unknown>,
    invokeOptions: ToolInvokeOptions = {},
  ): Promise<ToolResult> => {
    const timeout = invokeOptions.timeout ?? options.timeout;
    return caller.callTool(tool.name, args, {
      signal: invokeOptions.signal,
      // Progress is always asked for: it is what keeps a long call's timeout from expiring.
      onProgress: invokeOptions.onProgress ?? noProgress,
      timeout,
      resetTimeoutOnProgress,
      maxTotalTimeout: timeout === undefined ? cap : Math.max(cap, timeout),
    });
  };
  return {
    name,
    description: tool.description ?? tool.title ?? "",
    inputSchema: tool.inputSchema,
    definition: tool,
    call,
    async invoke(args: Record<string, unknown>, invokeOptions?: ToolInvokeOptions): Promise<ToolOutput> {
      const output = toToolOutput(await call(args, invokeOptions), name);
      if (output.isError && options.throwOnToolError) throw new ToolError(name, output);
      return output;
    },
  };
}

/**
 * Every tool of a server (all pages of `tools/list`) as `AgentTool`s. `client.asTools(options)` is this.
 * Options apply to every tool; `tools: { [mcpName]: { … } }` overrides them for one.
 */
export async function asTools(client: ToolLister, options: AsToolsOptions = {}): Promise<McpTool[]> {
  const { tools: perTool = {}, ...defaults } = options;
  const listed = await client.listTools();
  return listed.map((tool) => mcpTool(client, tool, { ...defaults, ...perTool[tool.name] }));
}

/** What a local tool's `run` may return: text, content blocks, a full result, or any JSON value. */
export type LocalToolReturn =
  | string
  | ContentBlock[]
  | { content: ContentBlock[]; structuredContent?: Record<string, unknown>; isError?: boolean }
  | Record<string, unknown>
  | number
  | boolean
  | null
  | undefined;

/** What a local tool's `run` receives besides its arguments. */
export interface LocalToolContext {
  /** Aborted when the caller aborts or the timeout expires. */
  signal: AbortSignal;
  progress(progress: Progress): void;
}

/** A local function as a tool, beside MCP tools. */
export interface LocalToolDefinition<S extends SchemaLike> {
  name: string;
  description: string;
  /** A zod v4 (or any Standard Schema with JSON Schema export) or a plain JSON Schema object. */
  input?: S;
  run(
    args: S extends StandardSchemaV1 ? InferOutput<S> : Record<string, unknown>,
    context: LocalToolContext,
  ): LocalToolReturn | Promise<LocalToolReturn>;
  /** Default per-call timeout in ms; none unless given. */
  timeout?: number;
  /** Throw a `ToolError` for a failure instead of returning it; default `false`. */
  throwOnToolError?: boolean;
}

const EMPTY_INPUT: JsonSchema = { type: "object", properties: {} };

function toResult(value: LocalToolReturn): ToolResult {
  if (typeof value === "string") return new ToolResult({ content: [{ type: "text", text: value }] });
  if (value === undefined || value === null) return new ToolResult({ content: [] });
  if (Array.isArray(value)) return new ToolResult({ content: value });
  if (typeof value === "object" && Array.isArray((value as { content?: unknown }).content)) {
    return new ToolResult(value as { content: ContentBlock[] });
  }
  const text = JSON.stringify(value);
  return typeof value === "object"
    ? new ToolResult({
        content: [{ type: "text", text }],
        structuredContent: value as Record<string, unknown>,
      })
    : new ToolResult({ content: [{ type: "text", text }] });
}

const failure = (message: string): ToolResult =>
  new ToolResult({ content: [{ type: "text", text: message }], isError: true });

/**
 * A local function as an `AgentTool`. Arguments are checked against `input` first: invalid ones give an
 * `isError` output naming the field, and `run` is not called. A thrown error becomes an `isError`
 * output with its message (or a `ToolError` with `throwOnToolError`); an abort or a timeout rejects.
 */
export function localTool<S extends SchemaLike>(definition: LocalToolDefinition<S>): AgentTool {
  const compiled = definition.input ? compileSchema(definition.input) : undefined;
  const inputSchema = compiled ? { type: "object", ...compiled.jsonSchema } : EMPTY_INPUT;
  const { name } = definition;
  const finish = (result: ToolResult): ToolOutput => {
    const output = toToolOutput(result, name);
    if (output.isError && definition.throwOnToolError) throw new ToolError(name, output);
    return output;
  };
  return {
    name,
    description: definition.description,
    inputSchema,
    async invoke(args: Record<string, unknown>, options: ToolInvokeOptions = {}): Promise<ToolOutput> {
      const checked = compiled ? await compiled.validate(args ?? {}) : { ok: true as const, value: args };
      if (!checked.ok) return finish(failure(`Invalid arguments for tool ${name}: ${checked.message}`));
      const controller = new AbortController();
      const stop = (reason: unknown) => controller.abort(reason);
      const onAbort = () => stop(options.signal?.reason);
      if (options.signal?.aborted) throw options.signal.reason;
      options.signal?.addEventListener("abort", onAbort, { once: true });
      const timeout = options.timeout ?? definition.timeout;
      const timer =
        timeout === undefined
          ? undefined
          : setTimeout(
              () =>
                stop(new McpError(ErrorCode.RequestTimeout, `Tool ${name} timed out after ${timeout} ms`)),
              timeout,
            );
      const aborted = new Promise<never>((_, reject) => {
        controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
      });
      try {
        const context = { signal: controller.signal, progress: options.onProgress ?? noProgress };
        const run = Promise.resolve().then(() => definition.run(checked.value as never, context));
        let result: ToolResult;
        try {
          result = toResult(await Promise.race([run, aborted]));
        } catch (error) {
          if (controller.signal.aborted) throw controller.signal.reason;
          result = failure(error instanceof Error ? error.message : String(error));
        }
        return finish(result);
      } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        aborted.catch(() => {});
      }
    },
  };
}
