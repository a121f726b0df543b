export type { Completer, CompletionReturn } from "./completion.js";
export type {
  PromptArgs,
  PromptArgumentSpec,
  PromptArguments,
  PromptConfig,
  PromptHandler,
  PromptReturn,
} from "./prompts.js";
export type {
  ReadResource,
  ReadTemplateResource,
  ResourceMeta,
  ResourceOptions,
  ResourceReturn,
  ResourceTemplateMeta,
  ResourceTemplateOptions,
} from "./resources.js";
export type {
  TaskSupport,
  ToolArgs,
  ToolConfig,
  ToolHandler,
  ToolResultOf,
  ToolTaskOptions,
} from "./tool-config.js";
export type { ToolReturn } from "./tool-result.js";
