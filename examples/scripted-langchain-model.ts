// A LangChain chat model that answers from a script, one turn per call, with tool calling: an
// offline stand-in for ChatOpenAI, ChatAnthropic and the others.
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import { BaseChatModel, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import { AIMessage, type AIMessageChunk, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";

/** One answer of the model, written from the conversation so far (so it can read tool results). */
export type ScriptedTurn = (messages: BaseMessage[]) => AIMessage;

export class ScriptedLangChainModel extends BaseChatModel {
  private calls = 0;

  constructor(private readonly turns: ScriptedTurn[]) {
    super({});
  }

  _llmType(): string {
    return "scripted";
  }

  // Agents bind their tools to the model; the script already knows which to call.
  override bindTools(_tools: BindToolsInput[]): Runnable<BaseLanguageModelInput, AIMessageChunk> {
    return this as unknown as Runnable<BaseLanguageModelInput, AIMessageChunk>;
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    options.signal?.throwIfAborted();
    const turn = this.turns[this.calls++];
    if (!turn) throw new Error(`The script has no turn ${this.calls}`);
    const message = turn(messages);
    return { generations: [{ text: message.text, message }] };
  }
}

/** A turn that calls one tool. */
export function callTool(name: string, args: Record<string, unknown>): AIMessage {
  return new AIMessage({ content: "", tool_calls: [{ id: `call_${name}`, name, args, type: "tool_call" }] });
}

/** What the named tool answered last in the conversation. */
export function toolResult(messages: BaseMessage[], name: string): string {
  const answer = messages.findLast((message) => ToolMessage.isInstance(message) && message.name === name);
  if (!answer) throw new Error(`${name} has not answered yet`);
  return answer.text;
}
