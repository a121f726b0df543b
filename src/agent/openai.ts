import { randomUUID } from "node:crypto";
import { type LlmProvider, schemaForLlm } from "../client/tools/llm-schema.js";
import type { JsonSchema } from "../protocol/types/tools.js";
import type {
  AssistantMessage,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
  CompleteOptions,
  ToolCall,
  ToolDefinition,
} from "./chat-model.js";
import { ChatModelError } from "./errors.js";

export interface OpenAIChatModelOptions {
  /** The model name (`gpt-4o-mini`, `qwen2.5:7b`, `deepseek-chat`, …); default `OPENAI_MODEL`. */
  model?: string;
  /** The API's base URL, up to and without `/chat/completions`; default `OPENAI_BASE_URL`, then `https://api.openai.com/v1`. */
  baseURL?: string;
  /** Sent as `Authorization: Bearer …`; default `OPENAI_API_KEY`. Local servers (Ollama, vLLM) need none. */
  apiKey?: string;
  temperature?: number;
  /** Sent as `max_tokens`. */
  maxTokens?: number;
  /** Sent as `parallel_tool_calls` when tools are offered; the API's default when absent. */
  parallelToolCalls?: boolean;
  /** More headers for every request. */
  headers?: Record<string, string>;
  /** More fields merged into every request body (`top_p`, `seed`, provider options …). */
  extraBody?: Record<string, unknown>;
  /** Per-request timeout in ms; default 120 000. */
  timeout?: number;
  /**
   * Whose rules tool schemas are adapted to (`$ref` inlined, rejected keywords dropped); default
   * `"openai"`. `"gemini"` for Gemini's OpenAI-compatible endpoint, `"generic"` for the least change.
   */
  schemaProvider?: LlmProvider;
  /** The `fetch` to use; default the global one. */
  fetch?: typeof fetch;
}

const DEFAULT_BASE_URL = "https://api.openai.com/v1";
const BODY_EXCERPT = 1000;

interface WireToolCall {
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: unknown };
}

interface WireMessage {
  content?: unknown;
  tool_calls?: WireToolCall[];
}

interface WireCompletion {
  choices?: { message?: WireMessage; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  error?: { message?: string } | string;
}

/** A tool message as text: OpenAI's API has no error flag, so a failure is said in words. */
function toolContent(content: string, isError: boolean | undefined): string {
  return isError && !/^error\b/i.test(content) ? `Error: ${content}` : content;
}

function toWire(message: ChatMessage): Record<string, unknown> {
  switch (message.role) {
    case "assistant": {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        content: message.content === "" ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
    case "tool":
      return {
        role: "tool",
        tool_call_id: message.toolCallId,
        content: toolContent(message.content, message.isError),
      };
    default:
      return { role: message.role, content: message.content };
  }
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (typeof part === "string" ? part : typeof part?.text === "string" ? part.text : ""))
      .join("");
  }
  return "";
}

function fromWire(message: WireMessage): AssistantMessage {
  const toolCalls: ToolCall[] = (message.tool_calls ?? [])
    .filter((call) => typeof call.function?.name === "string")
    .map((call) => {
      const args = call.function?.arguments;
      return {
        id: typeof call.id === "string" && call.id !== "" ? call.id : `call_${randomUUID()}`,
        name: call.function!.name!,
        // Some servers (older Ollama) send an object instead of JSON text.
        arguments: typeof args === "string" ? args : args === undefined ? "{}" : JSON.stringify(args),
      };
    });
  return {
    role: "assistant",
    content: textOf(message.content),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
  };
}

const excerpt = (text: string): string =>
  text.length > BODY_EXCERPT ? `${text.slice(0, BODY_EXCERPT)}… (${text.length} characters)` : text;

/**
 * A {@link ChatModel} over any OpenAI-compatible `/chat/completions` API with tool calling:
 * OpenAI, Azure OpenAI's v1 endpoint, Ollama, vLLM, LM Studio, DeepSeek, Qwen (DashScope), Groq ….
 * Tool schemas are adapted to what the API accepts (`$ref` inlined, unsupported keywords dropped).
 *
 * Failures reject with a {@link ChatModelError}: the URL, the HTTP status and the start of the
 * body when the server answered; the network error when it could not be reached; a timeout.
 *
 * @example
 * const model = new OpenAIChatModel({ model: "qwen2.5:7b", baseURL: "http://localhost:11434/v1" });
 */
export class OpenAIChatModel implements ChatModel {
  readonly model: string;
  readonly baseURL: string;
  private readonly apiKey: string | undefined;
  private readonly options: OpenAIChatModelOptions;
  private readonly schemas = new WeakMap<JsonSchema, JsonSchema>();

  constructor(options: OpenAIChatModelOptions = {}) {
    this.options = options;
    const model = options.model || process.env.OPENAI_MODEL;
    if (!model) throw new Error("OpenAIChatModel needs a model name: pass { model } or set OPENAI_MODEL");
    this.model = model;
    this.baseURL = (options.baseURL || process.env.OPENAI_BASE_URL || DEFAULT_BASE_URL).replace(/\/+$/, "");
    this.apiKey = options.apiKey || process.env.OPENAI_API_KEY || undefined;
    if (!this.apiKey && new URL(this.baseURL).hostname === "api.openai.com") {
      throw new Error(
        "OpenAIChatModel needs an API key for api.openai.com: pass { apiKey } or set OPENAI_API_KEY",
      );
    }
  }

  /** The URL requests go to. */
  get endpoint(): string {
    return `${this.baseURL}/chat/completions`;
  }

  async complete(request: ChatRequest, options: CompleteOptions = {}): Promise<ChatResponse> {
    const { signal } = options;
    signal?.throwIfAborted();
    const tools = request.tools ?? [];
    const body: Record<string, unknown> = {
      model: this.model,
      messages: request.messages.map(toWire),
      ...(tools.length > 0 ? { tools: tools.map((tool) => this.toolToWire(tool)) } : {}),
      ...(tools.length > 0 && this.options.parallelToolCalls !== undefined
        ? { parallel_tool_calls: this.options.parallelToolCalls }
        : {}),
      ...(this.options.temperature !== undefined ? { temperature: this.options.temperature } : {}),
      ...(this.options.maxTokens !== undefined ? { max_tokens: this.options.maxTokens } : {}),
      ...this.options.extraBody,
    };
    const timeout = this.options.timeout ?? 120_000;
    const timer = AbortSignal.timeout(timeout);
    const combined = signal ? AbortSignal.any([signal, timer]) : timer;

    let response: Response;
    let text: string;
    try {
      response = await (this.options.fetch ?? fetch)(this.endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
          ...this.options.headers,
        },
        body: JSON.stringify(body),
        signal: combined,
      });
      text = await response.text();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timer.aborted) {
        throw new ChatModelError(`POST ${this.endpoint} timed out after ${timeout} ms`, { cause: error });
      }
      const reason =
        error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : error;
      throw new ChatModelError(`Cannot reach ${this.endpoint}: ${reason}`, { cause: error });
    }
    return this.parse(response, text);
  }

  private toolToWire(tool: ToolDefinition): Record<string, unknown> {
    let parameters = this.schemas.get(tool.parameters);
    if (!parameters) {
      parameters = schemaForLlm(tool.parameters, this.options.schemaProvider ?? "openai");
      this.schemas.set(tool.parameters, parameters);
    }
    return { type: "function", function: { name: tool.name, description: tool.description, parameters } };
  }

  private parse(response: Response, text: string): ChatResponse {
    const where = `POST ${this.endpoint}`;
    if (!response.ok) {
      throw new ChatModelError(
        `${where} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}: ${excerpt(text) || "(empty body)"}`,
        { status: response.status, body: text.slice(0, BODY_EXCERPT) },
      );
    }
    let completion: WireCompletion;
    try {
      completion = JSON.parse(text) as WireCompletion;
    } catch {
      throw new ChatModelError(
        `${where} answered ${response.status} with a body that is not JSON: ${excerpt(text)}`,
        {
          status: response.status,
          body: text.slice(0, BODY_EXCERPT),
        },
      );
    }
    const choice = completion?.choices?.[0];
    if (!choice?.message) {
      const error = completion?.error;
      const detail = typeof error === "string" ? error : error?.message;
      throw new ChatModelError(
        `${where} answered without a message${detail ? `: ${detail}` : ""}: ${excerpt(text)}`,
        { status: response.status, body: text.slice(0, BODY_EXCERPT) },
      );
    }
    const usage = completion.usage;
    return {
      message: fromWire(choice.message),
      ...(typeof choice.finish_reason === "string" ? { finishReason: choice.finish_reason } : {}),
      ...(usage
        ? {
            usage: {
              ...(typeof usage.prompt_tokens === "number" ? { inputTokens: usage.prompt_tokens } : {}),
              ...(typeof usage.completion_tokens === "number"
                ? { outputTokens: usage.completion_tokens }
                : {}),
            },
          }
        : {}),
    };
  }
}
