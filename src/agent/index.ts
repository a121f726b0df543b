export {
  Agent,
  type AgentEvents,
  type AgentListeners,
  type AgentOptions,
  type AgentResult,
  type AgentStep,
  type RunOptions,
} from "./agent.js";
export type {
  AssistantMessage,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
  ChatUsage,
  CompleteOptions,
  SystemMessage,
  ToolCall,
  ToolDefinition,
  ToolMessage,
  UserMessage,
} from "./chat-model.js";
export { ChatModelError, MaxStepsError } from "./errors.js";
export { OpenAIChatModel, type OpenAIChatModelOptions } from "./openai.js";
export type { ToolCallRecord } from "./run-tool.js";
export type { AgentActivity, AgentActivitySpan, AgentTracer } from "./tracer.js";
