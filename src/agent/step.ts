import type { AssistantMessage, ChatUsage } from "./chat-model.js";
import type { ToolCallRecord } from "./run-tool.js";

/** One model call and the tool calls it asked for. */
export interface AgentStep {
  /** 1-based. */
  index: number;
  /** What the model answered. */
  message: AssistantMessage;
  /** One per tool call, in the model's order. */
  toolResults: ToolCallRecord[];
  usage?: ChatUsage;
  finishReason?: string;
}
