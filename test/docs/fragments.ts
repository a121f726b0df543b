/**
 * What the guides' fragments use without declaring it: a `server` or `client` from an earlier
 * block, the names a guide imported above, a model. Each block is a module, so a block that
 * declares or imports one of these names uses its own. Written as build/docs-blocks/fragments.d.ts
 * by the docs test: as a file under test/ it would give these globals to every test too. When the
 * blocks run, preamble.ts makes them for real, as each block's runtime asks.
 */
export const FRAGMENT_GLOBALS = `import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { LanguageModel } from "ai";
import type { Agent as AgentClass, ChatModel } from "mcpkit/agent";
import type { McpClient as McpClientClass, MultiServerClient as MultiServerClientClass } from "mcpkit/client";
import type { ErrorCode as ErrorCodes, McpError as McpErrorClass } from "mcpkit/jsonrpc";
import type { McpServer as McpServerClass } from "mcpkit/server";
import type { z as zod } from "zod";

declare global {
  // Imported by an earlier block of the same guide.
  const McpServer: typeof McpServerClass;
  const McpClient: typeof McpClientClass;
  const MultiServerClient: typeof MultiServerClientClass;
  const Agent: typeof AgentClass;
  const McpError: typeof McpErrorClass;
  const ErrorCode: typeof ErrorCodes;
  const z: typeof zod;

  // Made by an earlier block, or by the reader.
  const server: McpServerClass;
  const client: McpClientClass;
  /** Another client of the same server. */
  const other: McpClientClass;
  const mcp: MultiServerClientClass;
  const url: string;
  const config: Parameters<typeof MultiServerClientClass.connect>[0];
  /** A model for mcpkit's \`Agent\` or the AI SDK: the guides show both. */
  const model: ChatModel & Exclude<LanguageModel, string>;
  /** A LangChain chat model. */
  const chatModel: BaseChatModel;
  /** The reader's own code, in the tools of examples. */
  function add(text: string): string;
  const requestedSchema: { type: "object"; properties: { go: { type: "boolean" } } };
  const forecastHtml: string;
  const input: zod.ZodObject<{ city: zod.ZodString }>;
  function handler(args: { city: string }): string;
}
`;
