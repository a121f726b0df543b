import type { JsonSchema } from "../protocol/types/tools.js";

/** Instructions for the model; usually the first message. */
export interface SystemMessage {
  role: "system";
  content: string;
}

/** What the user said. */
export interface UserMessage {
  role: "user";
  content: string;
}

/** A tool call the model asked for. */
export interface ToolCall {
  /** The id the tool's answer refers to (`tool_call_id` in OpenAI's API). */
  id: string;
  /** The tool's name, as offered in {@link ToolDefinition.name}. */
  name: string;
  /**
   * The arguments as the model wrote them: JSON text, which may be invalid. Kept verbatim so the
   * conversation replays exactly; the agent parses it and tells the model when it cannot.
   */
  arguments: string;
}

/** What the model answered: text, tool calls, or both. */
export interface AssistantMessage {
  role: "assistant";
  /** The text; `""` when the model only called tools. */
  content: string;
  /** Tool calls to run before asking the model again; absent or empty for a final answer. */
  toolCalls?: ToolCall[];
}

/** The answer to one {@link ToolCall}. */
export interface ToolMessage {
  role: "tool";
  toolCallId: string;
  /** The tool's name (some providers want it; OpenAI ignores it). */
  name: string;
  /** What the model reads: the tool's text, or the error. */
  content: string;
  /** The tool failed; providers that have an error flag set it, others get a textual hint. */
  isError?: boolean;
}

export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** A tool as offered to a model. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema), as the tool declares it. */
  parameters: JsonSchema;
}

/** One request to a chat model. */
export interface ChatRequest {
  messages: ChatMessage[];
  /** Tools the model may call; absent or empty for none. */
  tools?: ToolDefinition[];
}

/** Token counts, where the provider reports them. */
export interface ChatUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** One answer from a chat model. */
export interface ChatResponse {
  message: AssistantMessage;
  /** Why the model stopped (`stop`, `tool_calls`, `length`, …), as the provider says it. */
  finishReason?: string;
  usage?: ChatUsage;
}

export interface CompleteOptions {
  /** Aborting cancels the request; `complete` then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * A chat model with tool calling: the one thing {@link Agent} needs from an LLM. Implement it to
 * plug in any provider; {@link OpenAIChatModel} speaks every OpenAI-compatible API.
 */
export interface ChatModel {
  complete(request: ChatRequest, options?: CompleteOptions): Promise<ChatResponse>;
}
