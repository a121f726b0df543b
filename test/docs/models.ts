/**
 * The scripted models of the adapters' fragment (docs/agents.md): `chatModel`, a LangChain chat
 * model, and `model`, an AI SDK language model, each calling the "everything" server's
 * `test_simple_text` tool once and then saying what it got. Apart from the preamble, so only the
 * block that needs LangChain and the AI SDK loads them.
 */
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { MockLanguageModelV3 } from "ai/test";
import { callTools, ScriptedChatModel } from "../langchain/scripted-chat-model.js";

const TOOL = "test_simple_text";

export function adapterModels(): void {
  const chatModel = new ScriptedChatModel([
    callTools({ id: "lc", name: TOOL, args: {} }),
    (messages) => {
      const answer = messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === "lc");
      return new AIMessage(`LangChain got: ${answer?.text}`);
    },
  ]);
  const usage = {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  };
  let turn = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      if (turn++ === 0)
        return {
          content: [{ type: "tool-call", toolCallId: "ai", toolName: TOOL, input: "{}" }],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage,
          warnings: [],
        };
      const result = options.prompt
        .flatMap((message) => (message.role === "tool" ? message.content : []))
        .find((part) => part.type === "tool-result" && part.toolCallId === "ai");
      const output =
        result?.type === "tool-result" ? (result.output as { value?: unknown }).value : undefined;
      return {
        content: [{ type: "text", text: `AI SDK got: ${output}` }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      };
    },
  });
  Object.assign(globalThis, { chatModel, model });
}
