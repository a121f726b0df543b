// A `ChatModel` that answers from a script, one turn per call: a stand-in for an LLM that runs
// offline, and the shape of an adapter for any provider (one `complete` method).
import type { AssistantMessage, ChatMessage, ChatModel } from "mcpkit/agent";

/** One answer of the model, written from the conversation so far (so it can read tool results). */
export type ScriptedTurn = (messages: ChatMessage[]) => AssistantMessage;

export function scriptedChatModel(turns: ScriptedTurn[]): ChatModel {
  let calls = 0;
  return {
    async complete(request, options) {
      options?.signal?.throwIfAborted();
      const turn = turns[calls++];
      if (!turn) throw new Error(`The script has no turn ${calls}`);
      const message = turn(request.messages);
      return { message, finishReason: message.toolCalls?.length ? "tool_calls" : "stop" };
    },
  };
}

/** A turn that calls one tool. */
export function callTool(name: string, args: Record<string, unknown>): AssistantMessage {
  return {
    role: "assistant",
    content: "",
    toolCalls: [{ id: `call_${name}`, name, arguments: JSON.stringify(args) }],
  };
}

/** A final answer. */
export function say(content: string): AssistantMessage {
  return { role: "assistant", content };
}

/** What the named tool answered last in the conversation. */
export function toolResult(messages: ChatMessage[], name: string): string {
  const answer = messages.findLast((message) => message.role === "tool" && message.name === name);
  if (answer?.role !== "tool") throw new Error(`${name} has not answered yet`);
  return answer.content;
}
