import type { McpServer } from "../../server/server.js";

const NAME_FORM = {
  message: "What is your name?",
  requestedSchema: { type: "object" as const, properties: { name: { type: "string" } }, required: ["name"] },
};

const CAPITAL_QUESTION = {
  messages: [
    { role: "user" as const, content: { type: "text" as const, text: "What is the capital of France?" } },
  ],
  maxTokens: 100,
};

function answerText(result: { content?: unknown }): string {
  const content = result.content as { type?: string; text?: string } | undefined;
  return content?.type === "text" ? (content.text ?? "") : JSON.stringify(result.content);
}

/**
 * The tools the 2026-07-28 conformance scenarios call: multi round-trip requests, capability
 * checks, logging without a level, list changes for `subscriptions/listen`, `x-mcp-header`. In a
 * handshake session the same handlers send ordinary server→client requests.
 */
export function registerModernTools(server: McpServer): void {
  let dynamicTool = false;
  let dynamicPrompt = false;
  server
    .tool(
      "test_x_mcp_header",
      {
        description: "Echoes its region argument, which HTTP clients mirror in the Mcp-Param-Region header",
        input: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
      },
      ({ region }) => `region: ${region ?? "(none)"}`,
    )
    .tool(
      "test_missing_capability",
      { description: "Needs the client's sampling capability" },
      async (_args, ctx) => {
        const result = await ctx.sample(CAPITAL_QUESTION);
        return answerText(result);
      },
    )
    .tool(
      "test_streaming_elicitation",
      { description: "Asks the user for their name" },
      async (_args, ctx) => {
        const result = await ctx.elicit(NAME_FORM);
        return `elicitation: ${result.action}`;
      },
    )
    .tool(
      "test_logging_tool",
      { description: "Logs at every level; sends nothing unless the request asks" },
      (_args, ctx) => {
        for (const level of ["debug", "info", "warning", "error"] as const)
          ctx.log(level, `a ${level} message`);
        return "logged";
      },
    )
    .tool("test_trigger_tool_change", { description: "Adds or removes a tool, so tool lists change" }, () => {
      dynamicTool = !dynamicTool;
      if (dynamicTool)
        server.tool("test_dynamic_tool", { description: "Appears and disappears" }, () => "dynamic");
      else server.removeTool("test_dynamic_tool");
      return `test_dynamic_tool is now ${dynamicTool ? "listed" : "gone"}`;
    })
    .tool(
      "test_trigger_prompt_change",
      { description: "Adds or removes a prompt, so prompt lists change" },
      () => {
        dynamicPrompt = !dynamicPrompt;
        if (dynamicPrompt)
          server.prompt("test_dynamic_prompt", { description: "Appears and disappears" }, () => "dynamic");
        else server.removePrompt("test_dynamic_prompt");
        return `test_dynamic_prompt is now ${dynamicPrompt ? "listed" : "gone"}`;
      },
    )
    .tool(
      "test_input_required_result_elicitation",
      { description: "Asks for the user's name" },
      async (_args, ctx) => {
        const result = await ctx.elicit(NAME_FORM, { key: "user_name" });
        return `Hello, ${String(result.content?.name ?? "stranger")} (${result.action})`;
      },
    )
    .tool(
      "test_input_required_result_sampling",
      { description: "Asks the client's model a question" },
      async (_args, ctx) => {
        const result = await ctx.sample(CAPITAL_QUESTION, { key: "capital_question" });
        return `The model says: ${answerText(result)}`;
      },
    )
    .tool(
      "test_input_required_result_list_roots",
      { description: "Lists the client's roots" },
      async (_args, ctx) => {
        const roots = await ctx.listRoots({ key: "client_roots" });
        return `Roots: ${roots.map((root) => root.uri).join(", ")}`;
      },
    )
    .tool(
      "test_input_required_result_request_state",
      { description: "Asks once and carries the answer in requestState; answers state-ok" },
      async (_args, ctx) => {
        await ctx.elicit(NAME_FORM, { key: "user_name" });
        return "state-ok";
      },
    )
    .tool(
      "test_input_required_result_multiple_inputs",
      { description: "Asks for a name, a model answer and the roots at once" },
      async (_args, ctx) => {
        const [name, answer, roots] = await Promise.all([
          ctx.elicit(NAME_FORM, { key: "user_name" }),
          ctx.sample(CAPITAL_QUESTION, { key: "capital_question" }),
          ctx.listRoots({ key: "client_roots" }),
        ]);
        return `name ${name.action}, model: ${answerText(answer)}, ${roots.length} root(s)`;
      },
    )
    .tool(
      "test_input_required_result_multi_round",
      { description: "Asks two questions, one per round" },
      async (_args, ctx) => {
        const first = await ctx.elicit(NAME_FORM, { key: "round_1" });
        const second = await ctx.elicit({ ...NAME_FORM, message: "And your nickname?" }, { key: "round_2" });
        return `rounds done: ${first.action}, ${second.action}`;
      },
    )
    .tool(
      "test_input_required_result_tampered_state",
      { description: "Asks once; a retry with an altered requestState is refused" },
      async (_args, ctx) => {
        await ctx.elicit(NAME_FORM, { key: "user_name" });
        return "state verified";
      },
    )
    .tool(
      "test_input_required_result_capabilities",
      { description: "Asks only through what the client declared" },
      async (_args, ctx) => {
        if (ctx.clientCapabilities.elicitation) {
          const result = await ctx.elicit(NAME_FORM, { key: "user_name" });
          return `elicitation: ${result.action}`;
        }
        if (ctx.clientCapabilities.sampling) {
          const result = await ctx.sample(CAPITAL_QUESTION, { key: "capital_question" });
          return `sampling: ${answerText(result)}`;
        }
        return "the client declared neither elicitation nor sampling";
      },
    )
    .prompt(
      "test_input_required_result_prompt",
      { description: "Asks for context before it is written" },
      async (_args, ctx) => {
        const result = await ctx.elicit(
          {
            message: "What should the prompt be about?",
            requestedSchema: { type: "object", properties: { context: { type: "string" } } },
          },
          { key: "user_context" },
        );
        return `Write about: ${String(result.content?.context ?? "anything")}`;
      },
    );
}
