import type { AgentTool } from "../client/tools/tool.js";
import type { Progress } from "../protocol/types/base.js";
import { Emitter } from "../util/emitter.js";
import type {
  AssistantMessage,
  ChatMessage,
  ChatModel,
  ChatUsage,
  ToolCall,
  ToolDefinition,
} from "./chat-model.js";
import { MaxStepsError } from "./errors.js";
import { abortable, runToolCall, type ToolCallRecord } from "./run-tool.js";
import type { AgentStep } from "./step.js";

export type { AgentStep } from "./step.js";

import { type AgentTracer, traced } from "./tracer.js";

export interface AgentOptions {
  model: ChatModel;
  /** The tools the model may call: MCP tools (`client.asTools()`, `MultiServerClient.tools()`) and local ones. */
  tools?: AgentTool[];
  /** Most model calls in one run; default 10. */
  maxSteps?: number;
  /** The system prompt, put first unless the conversation given to `run` starts with its own. */
  system?: string;
  /** Per-call timeout for tools, in ms, overriding each tool's default. */
  toolTimeout?: number;
  /** Traces the run, each model call and each tool call (`agentTracer()` of `mcpkit/otel`). */
  tracer?: AgentTracer;
}

/** What a finished run gives back. */
export interface AgentResult {
  /** The model's final answer. */
  output: string;
  steps: AgentStep[];
  /** The whole conversation, the final answer included: pass it to the next `run` to continue. */
  messages: ChatMessage[];
  /** Token counts summed over the steps, where the model reports them. */
  usage: Required<ChatUsage>;
}

/** Everything an agent reports while it runs. */
export interface AgentEvents {
  /** The model answered (text, tool calls or both). */
  modelOutput: { step: number; message: AssistantMessage; usage?: ChatUsage; finishReason?: string };
  /** A tool call is about to run. */
  toolCall: { step: number; call: ToolCall };
  /** A tool reported progress. */
  toolProgress: { step: number; call: ToolCall; progress: Progress };
  /** A tool call finished: answered, reported an error, threw, or named no known tool. */
  toolResult: { step: number } & ToolCallRecord;
  /** A step ended (after its tool calls, if any). */
  step: AgentStep;
}

export type AgentListeners = { [K in keyof AgentEvents]?: (event: AgentEvents[K]) => void };

export interface RunOptions {
  /** Aborting stops the run: the model request and every tool call in flight are cancelled. */
  signal?: AbortSignal;
  /** Listeners for this run only, beside those added with `agent.on`. */
  on?: AgentListeners;
}

const emptyUsage = (): Required<ChatUsage> => ({ inputTokens: 0, outputTokens: 0 });

/**
 * A ReAct tool-calling loop: ask the model, run the tools it calls (in parallel when it calls
 * several at once), give it the results, repeat until it answers without calling a tool.
 *
 * Whatever a tool does, the model gets an answer and the loop goes on:
 * - a result with `isError: true` goes back as the tool message, flagged as an error, so the model
 *   can correct itself;
 * - a tool that **throws** (a transport or protocol failure of an MCP tool, a bug in a local one)
 *   also becomes an error message, `Tool "name" failed: <message>`; the thrown value is kept in
 *   the step's `toolResults[i].error` (a `ToolError`, thrown by tools made with
 *   `throwOnToolError`, gives the model the tool's own error text);
 * - an unknown tool name or arguments that are not a JSON object are answered to the model too.
 *
 * Only three things end a run early: the signal aborts (the model request and every tool call in
 * flight get the signal, so MCP servers receive `notifications/cancelled`, and `run` rejects with
 * the signal's reason), the model fails (its error, e.g. {@link ChatModelError}), or `maxSteps`
 * model calls end with the model still calling tools ({@link MaxStepsError}; the last calls are
 * not run).
 *
 * @example
 * const agent = new Agent({ model: new OpenAIChatModel({ model: "gpt-4o-mini" }), tools: mcp.tools() });
 * agent.on("toolCall", ({ call }) => console.log("→", call.name, call.arguments));
 * const { output } = await agent.run("How many files are in /tmp? Multiply the count by 7.");
 */
export class Agent {
  readonly model: ChatModel;
  readonly maxSteps: number;
  readonly system: string | undefined;
  private readonly toolsByName = new Map<string, AgentTool>();
  private readonly definitions: ToolDefinition[];
  private readonly toolTimeout: number | undefined;
  private readonly tracer: AgentTracer | undefined;
  private readonly events = new Emitter<AgentEvents>();

  constructor(options: AgentOptions) {
    this.model = options.model;
    this.maxSteps = options.maxSteps ?? 10;
    if (!Number.isInteger(this.maxSteps) || this.maxSteps < 1) {
      throw new RangeError(`maxSteps must be a positive integer, not ${options.maxSteps}`);
    }
    this.system = options.system;
    this.toolTimeout = options.toolTimeout;
    this.tracer = options.tracer;
    for (const tool of options.tools ?? []) {
      if (this.toolsByName.has(tool.name)) {
        throw new Error(`Two tools are named "${tool.name}"; tool names must be unique within an agent`);
      }
      this.toolsByName.set(tool.name, tool);
    }
    this.definitions = [...this.toolsByName.values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
    }));
  }

  /** The tools the model is offered. */
  get tools(): AgentTool[] {
    return [...this.toolsByName.values()];
  }

  /** Listens to every run of this agent; returns the function that removes the listener. */
  on<K extends keyof AgentEvents>(event: K, listener: (value: AgentEvents[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  /**
   * Runs the loop to a final answer.
   *
   * @param input - The user's message, or a whole conversation (e.g. the previous result's
   *   `messages` plus a new user message).
   * @throws {@link MaxStepsError} when the model is still calling tools after `maxSteps` calls;
   *   the signal's reason when aborted; the model's error when a request fails.
   */
  run(input: string | ChatMessage[], options: RunOptions = {}): Promise<AgentResult> {
    return traced(this.tracer, { kind: "run" }, () => this.loop(input, options));
  }

  private async loop(input: string | ChatMessage[], options: RunOptions): Promise<AgentResult> {
    const { signal } = options;
    const emit = this.emitter(options);
    const messages = this.conversation(input);
    const steps: AgentStep[] = [];
    const usage = emptyUsage();
    for (let index = 1; ; index++) {
      signal?.throwIfAborted();
      const step = await this.ask(index, messages, usage, emit, signal);
      steps.push(step);
      const calls = step.message.toolCalls ?? [];
      if (calls.length === 0) {
        emit("step", step);
        return { output: step.message.content, steps, messages, usage };
      }
      if (index >= this.maxSteps) throw new MaxStepsError(this.maxSteps, steps);
      step.toolResults = await Promise.all(calls.map((call) => this.call(index, call, emit, signal)));
      signal?.throwIfAborted();
      for (const record of step.toolResults) messages.push(record.message);
      emit("step", step);
    }
  }

  /** Emits an event to the agent's listeners and the run's own; a listener's throw is reported, not raised. */
  private emitter(options: RunOptions): Emit {
    return (event, value) => {
      this.events.emit(event, value);
      try {
        options.on?.[event]?.(value);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    };
  }

  /** The messages a run starts from, with the system prompt first. */
  private conversation(input: string | ChatMessage[]): ChatMessage[] {
    const messages: ChatMessage[] =
      typeof input === "string" ? [{ role: "user", content: input }] : [...input];
    if (this.system !== undefined && messages[0]?.role !== "system") {
      messages.unshift({ role: "system", content: this.system });
    }
    return messages;
  }

  /** One request to the model: its message joins the conversation and becomes a step. */
  private async ask(
    index: number,
    messages: ChatMessage[],
    usage: Required<ChatUsage>,
    emit: Emit,
    signal: AbortSignal | undefined,
  ): Promise<AgentStep> {
    const response = await traced(this.tracer, { kind: "model", step: index }, async (span) => {
      const answer = await abortable(
        this.model.complete(
          { messages: [...messages], ...(this.definitions.length > 0 ? { tools: this.definitions } : {}) },
          signal ? { signal } : {},
        ),
        signal,
      );
      if (answer.usage?.inputTokens !== undefined)
        span.set({ "gen_ai.usage.input_tokens": answer.usage.inputTokens });
      if (answer.usage?.outputTokens !== undefined)
        span.set({ "gen_ai.usage.output_tokens": answer.usage.outputTokens });
      if (answer.finishReason !== undefined)
        span.set({ "gen_ai.response.finish_reasons": [answer.finishReason] });
      return answer;
    });
    const { message } = response;
    usage.inputTokens += response.usage?.inputTokens ?? 0;
    usage.outputTokens += response.usage?.outputTokens ?? 0;
    messages.push(message);
    const about = {
      ...(response.usage ? { usage: response.usage } : {}),
      ...(response.finishReason !== undefined ? { finishReason: response.finishReason } : {}),
    };
    emit("modelOutput", { step: index, message, ...about });
    return { index, message, toolResults: [], ...about };
  }

  /** Runs one tool call of a step, with its events. */
  private async call(index: number, call: ToolCall, emit: Emit, signal: AbortSignal | undefined) {
    emit("toolCall", { step: index, call });
    const activity = { kind: "tool", step: index, tool: call.name, callId: call.id } as const;
    const record = await traced(this.tracer, activity, async (span) => {
      const done = await runToolCall(call, this.toolsByName, {
        ...(signal ? { signal } : {}),
        ...(this.toolTimeout !== undefined ? { timeout: this.toolTimeout } : {}),
        onProgress: (progress) => emit("toolProgress", { step: index, call, progress }),
      });
      if (done.error !== undefined) span.fail(done.error instanceof Error ? done.error.name : "_OTHER");
      else if (done.output?.isError) span.fail("tool_error");
      return done;
    });
    emit("toolResult", { step: index, ...record });
    return record;
  }
}

type Emit = <K extends keyof AgentEvents>(event: K, value: AgentEvents[K]) => void;
