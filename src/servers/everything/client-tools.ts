import type { ElicitResult, SamplingContent } from "../../protocol/types/client-features.js";
import type { JsonSchema } from "../../protocol/types/tools.js";
import type { McpServer } from "../../server/server.js";
import type { RequestContext } from "../../server/sessions/context.js";

/** SEP-1034: a default for every primitive type. */
export const SEP1034_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    name: { type: "string", description: "User name", default: "John Doe" },
    age: { type: "integer", description: "User age", default: 30 },
    score: { type: "number", description: "User score", default: 95.5 },
    status: {
      type: "string",
      description: "User status",
      enum: ["active", "inactive", "pending"],
      default: "active",
    },
    verified: { type: "boolean", description: "Verification status", default: true },
  },
  required: [],
};

/** SEP-1330: every flavour of enum. */
export const SEP1330_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    untitledSingle: {
      type: "string",
      description: "Select one option",
      enum: ["option1", "option2", "option3"],
    },
    titledSingle: {
      type: "string",
      description: "Select one option with titles",
      oneOf: [
        { const: "value1", title: "First Option" },
        { const: "value2", title: "Second Option" },
        { const: "value3", title: "Third Option" },
      ],
    },
    legacyEnum: {
      type: "string",
      description: "Select one option (legacy)",
      enum: ["opt1", "opt2", "opt3"],
      enumNames: ["Option One", "Option Two", "Option Three"],
    },
    untitledMulti: {
      type: "array",
      description: "Select multiple options",
      minItems: 1,
      maxItems: 3,
      items: { type: "string", enum: ["option1", "option2", "option3"] },
    },
    titledMulti: {
      type: "array",
      description: "Select multiple options with titles",
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: "value1", title: "First Choice" },
          { const: "value2", title: "Second Choice" },
          { const: "value3", title: "Third Choice" },
        ],
      },
    },
  },
  required: [],
};

/** The form of `test_elicitation`. */
export const USER_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    username: { type: "string", description: "Your user name" },
    email: { type: "string", description: "Your email address", format: "email" },
  },
  required: ["username", "email"],
};

/** What a tool reports of an elicitation: the content if accepted, else that the user said no. */
function report(result: ElicitResult): string {
  if (result.action === "accept")
    return `Elicitation accepted: content=${JSON.stringify(result.content ?? {})}`;
  const what = result.action === "decline" ? "declined" : "cancelled";
  return `Elicitation ${what} by the user (action=${result.action}): no content was provided`;
}

const elicitForm = async (ctx: RequestContext, message: string, requestedSchema: JsonSchema) =>
  report(await ctx.elicit({ message, requestedSchema }, { signal: ctx.signal }));

function textOf(content: SamplingContent | SamplingContent[]): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

/**
 * The tools that ask the client: sampling, elicitation and roots. Without the client capability
 * (or, for elicitation, in a revision without it) the call fails with a JSON-RPC error saying so.
 */
export function registerClientTools(server: McpServer): void {
  server
    .tool(
      "test_sampling",
      {
        description: "Tests server-initiated sampling (LLM completion request)",
        input: {
          type: "object",
          properties: { prompt: { type: "string", description: "The prompt to send to the LLM" } },
          required: ["prompt"],
        },
      },
      async ({ prompt }, ctx) => {
        const result = await ctx.sample(
          { messages: [{ role: "user", content: { type: "text", text: String(prompt) } }], maxTokens: 100 },
          { signal: ctx.signal },
        );
        return `LLM response (${result.model}): ${textOf(result.content) || "(no text)"}`;
      },
    )
    .tool(
      "test_elicitation",
      {
        description: "Tests server-initiated elicitation (user input request): asks for a username and email",
        input: {
          type: "object",
          properties: { message: { type: "string", description: "The message to show the user" } },
          required: ["message"],
        },
      },
      ({ message }, ctx) => elicitForm(ctx, String(message), USER_SCHEMA),
    )
    .tool(
      "test_elicitation_sep1034_defaults",
      { description: "Tests elicitation with default values per SEP-1034" },
      (_args, ctx) =>
        elicitForm(ctx, "Please review and update the form fields with defaults", SEP1034_SCHEMA),
    )
    .tool(
      "test_elicitation_sep1330_enums",
      { description: "Tests elicitation with enum schema improvements per SEP-1330" },
      (_args, ctx) => elicitForm(ctx, "Please select options from the enum fields", SEP1330_SCHEMA),
    )
    .tool(
      "test_roots",
      {
        title: "List Roots",
        description: "Asks the client for its roots (roots/list) and returns them as JSON",
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async (_args, ctx) => JSON.stringify(await ctx.listRoots({ signal: ctx.signal })),
    );
}
