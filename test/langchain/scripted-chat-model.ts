import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BindToolsInput,
} from "@langchain/core/language_models/chat_models";
import { AIMessage, type AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";

/** A reply, or a function of the messages it answers (so the script can read tool results). */
export type ScriptedTurn = AIMessage | ((messages: BaseMessage[]) => AIMessage);

interface CallOptions extends BaseChatModelCallOptions {
  tools?: ReturnType<typeof convertToOpenAITool>[];
}

/** What the model was asked: the messages and the tools bound, as OpenAI-style definitions. */
export interface ScriptedCall {
  messages: BaseMessage[];
  tools: ReturnType<typeof convertToOpenAITool>[];
}

/**
 * A tool-calling chat model that replays a script, one turn per call, and records what it was
 * asked. The fake models of `@langchain/core/utils/testing` either ignore tool calls
 * (`FakeListChatModel`) or repeat one reply (`FakeStreamingChatModel`), so a ReAct loop needs this.
 */
export class ScriptedChatModel extends BaseChatModel<CallOptions> {
  readonly calls: ScriptedCall[] = [];
  private readonly script: ScriptedTurn[];

  constructor(script: ScriptedTurn[]) {
    super({});
    this.script = script;
  }

  _llmType(): string {
    return "scripted";
  }

  override bindTools(tools: BindToolsInput[]): Runnable<BaseLanguageModelInput, AIMessageChunk, CallOptions> {
    return this.withConfig({ tools: tools.map((tool) => convertToOpenAITool(tool)) }) as unknown as Runnable<
      BaseLanguageModelInput,
      AIMessageChunk,
      CallOptions
    >;
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    options.signal?.throwIfAborted();
    this.calls.push({ messages, tools: options.tools ?? [] });
    const turn = this.script[this.calls.length - 1];
    if (turn === undefined) throw new Error(`The script has no turn ${this.calls.length}`);
    const message = typeof turn === "function" ? turn(messages) : turn;
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}

/** An assistant turn that calls tools. */
export const callTools = (
  ...calls: { id: string; name: string; args: Record<string, unknown> }[]
): AIMessage =>
  new AIMessage({ content: "", tool_calls: calls.map((call) => ({ ...call, type: "tool_call" as const })) });
