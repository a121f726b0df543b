import type { AgentTool, ToolOutput } from "../client/tools/tool.js";
import { ToolError } from "../client/tools/tool-adapter.js";
import type { Progress } from "../protocol/types/base.js";
import type { ToolCall, ToolMessage } from "./chat-model.js";

/** What became of one tool call. */
export interface ToolCallRecord {
  call: ToolCall;
  /** The message the model gets back. */
  message: ToolMessage;
  /** What the tool returned, when it ran and returned (also when it reported `isError`). */
  output?: ToolOutput;
  /** What the tool threw, when it threw (the model gets `Tool "x" failed: …`). */
  error?: unknown;
  durationMs: number;
}

interface RunToolOptions {
  signal?: AbortSignal;
  timeout?: number;
  onProgress?: (progress: Progress) => void;
}

/** Parses a tool call's JSON arguments; a string is the problem to tell the model. */
function parseArguments(call: ToolCall): Record<string, unknown> | string {
  const text = call.arguments.trim();
  if (text === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `The arguments for tool "${call.name}" are not valid JSON (${(error as Error).message}). Send a JSON object.`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `The arguments for tool "${call.name}" must be a JSON object, not ${Array.isArray(value) ? "an array" : JSON.stringify(value)}.`;
  }
  return value as Record<string, unknown>;
}

/** Rejects with the signal's reason as soon as it aborts, even if `promise` never settles. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Runs one tool call and turns every outcome into a message for the model: the tool's text, its
 * `isError` text, a thrown failure, an unknown tool name or unparsable arguments. Only an abort of
 * `options.signal` rejects.
 */
export async function runToolCall(
  call: ToolCall,
  tools: ReadonlyMap<string, AgentTool>,
  options: RunToolOptions,
): Promise<ToolCallRecord> {
  const started = performance.now();
  const answer = (
    content: string,
    isError: boolean,
    extra: Partial<ToolCallRecord> = {},
  ): ToolCallRecord => ({
    call,
    message: { role: "tool", toolCallId: call.id, name: call.name, content, ...(isError ? { isError } : {}) },
    durationMs: performance.now() - started,
    ...extra,
  });

  const tool = tools.get(call.name);
  if (!tool) {
    const names = [...tools.keys()];
    return answer(
      `Unknown tool "${call.name}". ${names.length > 0 ? `The available tools are: ${names.join(", ")}.` : "No tools are available."}`,
      true,
    );
  }
  const args = parseArguments(call);
  if (typeof args === "string") return answer(args, true);

  try {
    const output = await abortable(
      tool.invoke(args, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      }),
      options.signal,
    );
    const text =
      output.isError && output.text.trim() === "" ? "The tool failed without saying why." : output.text;
    return answer(text, output.isError, { output });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    // A tool made with `throwOnToolError` throws its isError output: the model reads it as is.
    if (error instanceof ToolError) return answer(error.result.text, true, { output: error.result, error });
    return answer(`Tool "${call.name}" failed: ${errorMessage(error)}`, true, { error });
  }
}
