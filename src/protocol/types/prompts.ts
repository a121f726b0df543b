import type { Icon, Meta } from "./base.js";
import type { ContentBlock } from "./content.js";

/** An argument a prompt takes; prompt arguments are strings. */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** A prompt as `prompts/list` describes it. */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
}

/** One message of a prompt. */
export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
}

export interface ListPromptsResult {
  prompts: Prompt[];
  nextCursor?: string;
  _meta?: Meta;
}

export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Meta;
}
