/**
 * The seed article's scenario with a real LangChain/LangGraph ReAct agent (`createAgent` from
 * `langchain`, built on LangGraph) over real MCP servers: server-filesystem (stdio) and our
 * calculator (Streamable HTTP), driven by a scripted tool-calling chat model.
 */
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toLangChainTools } from "../../src/langchain/index.js";
import { countFiles, FILES, type Scenario, startScenario, startWaitServer } from "../agent/scenario.js";
import { callTools, ScriptedChatModel } from "./scripted-chat-model.js";

const SLOW = 60_000;
let scenario: Scenario;

beforeAll(async () => {
  scenario = await startScenario();
}, SLOW);
afterAll(() => scenario?.close());

/** The tool message answering `id` among `messages`. */
function answer(messages: BaseMessage[], id: string): ToolMessage {
  const found = messages.find((m): m is ToolMessage => ToolMessage.isInstance(m) && m.tool_call_id === id);
  if (!found) throw new Error(`No tool message answers ${id}`);
  return found;
}
const text = (message: BaseMessage): string => message.text;

describe("LangChain createAgent over MCP tools", () => {
  it("lists the temp dir, counts its files and multiplies the count with the calculator", {
    timeout: SLOW,
  }, async () => {
    const model = new ScriptedChatModel([
      callTools({ id: "ls", name: "list_directory", args: { path: scenario.dir } }),
      (messages) =>
        callTools({
          id: "calc",
          name: "calculator",
          args: { expression: `${countFiles(text(answer(messages, "ls")))} * 7` },
        }),
      (messages) =>
        new AIMessage(
          `The folder holds ${countFiles(text(answer(messages, "ls")))} files; ${text(answer(messages, "calc"))}.`,
        ),
    ]);
    const agent = createAgent({
      model,
      tools: toLangChainTools(scenario.tools),
      systemPrompt: "Use the tools.",
    });

    const state = await agent.invoke({
      messages: [
        { role: "user", content: `How many files are in ${scenario.dir}? Multiply the count by 7.` },
      ],
    });

    expect(text(state.messages.at(-1)!)).toBe(
      `The folder holds ${FILES.length} files; ${FILES.length} * 7 = ${FILES.length * 7}.`,
    );
    expect(model.calls).toHaveLength(3);
    const offered = model.calls[0]!.tools.map((tool) => tool.function.name);
    expect(offered).toEqual(expect.arrayContaining(["list_directory", "read_text_file", "calculator"]));
    const calculator = model.calls[0]!.tools.find((tool) => tool.function.name === "calculator")!;
    expect(calculator.function.parameters).toMatchObject({
      type: "object",
      properties: { expression: { type: "string" } },
      required: ["expression"],
    });
    expect(text(model.calls[0]!.messages[0]!)).toBe("Use the tools.");

    const listing = answer(state.messages, "ls");
    expect(listing.status).toBe("success");
    for (const file of FILES) expect(text(listing)).toContain(`[FILE] ${file}`);
    expect(listing.artifact).toMatchObject({ isError: false, content: [{ type: "text" }] });
    expect(text(answer(state.messages, "calc"))).toBe(`${FILES.length} * 7 = ${FILES.length * 7}`);
  });

  it("gives an isError result to the model as an error ToolMessage, and the agent goes on", {
    timeout: SLOW,
  }, async () => {
    const model = new ScriptedChatModel([
      callTools({ id: "bad", name: "calculator", args: { expression: "3 * / 7" } }),
      (messages) =>
        answer(messages, "bad").status === "error"
          ? callTools({ id: "good", name: "calculator", args: { expression: "3 * 7" } })
          : new AIMessage("The error never reached me."),
      (messages) => new AIMessage(`Fixed it: ${text(answer(messages, "good"))}`),
    ]);
    const agent = createAgent({ model, tools: toLangChainTools(scenario.tools) });
    const state = await agent.invoke({ messages: [{ role: "user", content: "What is 3 times 7?" }] });

    expect(text(state.messages.at(-1)!)).toBe("Fixed it: 3 * 7 = 21");
    const failed = answer(state.messages, "bad");
    expect(failed.status).toBe("error");
    expect(text(failed)).toBe('Cannot evaluate "3 * / 7": unexpected "/" at position 5');
    expect(failed.artifact).toMatchObject({ isError: true });
  });

  it("works with LangGraph's own prebuilt createReactAgent too", { timeout: SLOW }, async () => {
    const model = new ScriptedChatModel([
      callTools({ id: "ls", name: "list_directory", args: { path: scenario.dir } }),
      (messages) => new AIMessage(`${countFiles(text(answer(messages, "ls")))} files`),
    ]);
    const agent = createReactAgent({
      llm: model,
      tools: toLangChainTools(scenario.mcp.tools({ servers: ["fs"] })),
    });
    const state = await agent.invoke({
      messages: [{ role: "user", content: `Count the files in ${scenario.dir}` }],
    });
    expect(text(state.messages.at(-1)!)).toBe(`${FILES.length} files`);
    expect(model.calls[0]!.tools.map((tool) => tool.function.name)).not.toContain("calculator");
  });

  it("called with plain arguments, a tool returns its text", { timeout: SLOW }, async () => {
    const calculator = toLangChainTools(scenario.tools).find((tool) => tool.name === "calculator")!;
    expect(await calculator.invoke({ expression: "2 + 3 * 4" })).toBe("2 + 3 * 4 = 14");
  });

  it("an aborted run cancels the in-flight MCP call: the server handler's signal aborts", {
    timeout: SLOW,
  }, async () => {
    const waiter = await startWaitServer();
    try {
      const model = new ScriptedChatModel([callTools({ id: "w", name: "wait", args: {} })]);
      const agent = createAgent({ model, tools: toLangChainTools(waiter.tools) });
      const controller = new AbortController();
      const outcome = agent
        .invoke({ messages: [{ role: "user", content: "Wait" }] }, { signal: controller.signal })
        .catch((e: unknown) => e);
      await waiter.started;
      controller.abort();
      const error = (await outcome) as Error;
      expect(error.name).toBe("AbortError");
      expect(await waiter.cancelled).toBe(true);
    } finally {
      await waiter.close();
    }
  });
});
