/**
 * mcpkit's own `Agent` with `OpenAIChatModel` against a real local HTTP server that speaks
 * `/chat/completions` and replays a script, over real MCP servers: server-filesystem (stdio) and
 * our calculator (Streamable HTTP).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, type AgentEvents, MaxStepsError, OpenAIChatModel } from "../../src/agent/index.js";
import {
  lastToolResult,
  type ScriptedOpenAIServer,
  startScriptedOpenAI,
  toolResults,
} from "../fixtures/openai-server.js";
import { countFiles, FILES, type Scenario, startScenario, startWaitServer } from "./scenario.js";

const SLOW = 60_000;
let scenario: Scenario;
const servers: ScriptedOpenAIServer[] = [];

async function scripted(...args: Parameters<typeof startScriptedOpenAI>): Promise<ScriptedOpenAIServer> {
  const server = await startScriptedOpenAI(...args);
  servers.push(server);
  return server;
}

const modelFor = (server: ScriptedOpenAIServer) =>
  new OpenAIChatModel({ model: "scripted-gpt", baseURL: server.baseURL, apiKey: "sk-test" });

beforeAll(async () => {
  scenario = await startScenario();
}, SLOW);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await scenario?.close();
});

describe("Agent + OpenAIChatModel over real MCP servers", () => {
  it("lists the temp dir, counts its files and multiplies the count with the calculator", {
    timeout: SLOW,
  }, async () => {
    const openai = await scripted([
      { toolCalls: [{ id: "call_ls", name: "list_directory", arguments: { path: scenario.dir } }] },
      (request) => ({
        toolCalls: [
          {
            id: "call_calc",
            name: "calculator",
            arguments: { expression: `${countFiles(lastToolResult(request))} * 7` },
          },
        ],
      }),
      (request) => {
        const results = toolResults(request);
        return {
          content: `The folder holds ${countFiles(results.get("call_ls")!)} files; ${results.get("call_calc")}.`,
        };
      },
    ]);
    const agent = new Agent({
      model: modelFor(openai),
      tools: scenario.tools,
      system: "You are a careful assistant. Use the tools.",
    });
    const seen: string[] = [];
    agent.on("modelOutput", ({ step, message }) =>
      seen.push(`model ${step}: ${message.toolCalls?.map((c) => c.name).join(",") ?? "final"}`),
    );
    agent.on("toolCall", ({ step, call }) => seen.push(`call ${step}: ${call.name}`));
    agent.on("toolResult", ({ step, call, message }) =>
      seen.push(`result ${step}: ${call.name}${message.isError ? " (error)" : ""}`),
    );

    const result = await agent.run(`How many files are in ${scenario.dir}? Multiply the count by 7.`);

    expect(result.output).toBe(
      `The folder holds ${FILES.length} files; ${FILES.length} * 7 = ${FILES.length * 7}.`,
    );
    expect(seen).toEqual([
      "model 1: list_directory",
      "call 1: list_directory",
      "result 1: list_directory",
      "model 2: calculator",
      "call 2: calculator",
      "result 2: calculator",
      "model 3: final",
    ]);
    expect(result.steps.map((step) => step.toolResults.length)).toEqual([1, 1, 0]);
    expect(result.usage).toEqual({ inputTokens: 10 + 20 + 30, outputTokens: 15 });

    // What the model server received.
    expect(openai.requests).toHaveLength(3);
    const [first, second, third] = openai.requests.map((r) => r.body);
    expect(openai.requests[0]!.headers.authorization).toBe("Bearer sk-test");
    expect(first!.model).toBe("scripted-gpt");
    const offered = first!.tools!.map((tool) => tool.function.name);
    expect(offered).toEqual(expect.arrayContaining(["list_directory", "read_text_file", "calculator"]));
    const calculator = first!.tools!.find((tool) => tool.function.name === "calculator")!;
    expect(calculator.type).toBe("function");
    expect(calculator.function.parameters).toMatchObject({ type: "object", required: ["expression"] });
    expect(first!.messages).toEqual([
      { role: "system", content: "You are a careful assistant. Use the tools." },
      { role: "user", content: `How many files are in ${scenario.dir}? Multiply the count by 7.` },
    ]);
    // The tool call and its real result are fed back, tied by id.
    expect(second!.messages[2]).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "call_ls",
          type: "function",
          function: { name: "list_directory", arguments: JSON.stringify({ path: scenario.dir }) },
        },
      ],
    });
    const listing = second!.messages[3]!;
    expect(listing).toMatchObject({ role: "tool", tool_call_id: "call_ls" });
    for (const file of FILES) expect(listing.content).toContain(`[FILE] ${file}`);
    expect(listing.content).toContain("[DIR] notes");
    expect(third!.messages.at(-1)).toEqual({
      role: "tool",
      tool_call_id: "call_calc",
      content: `${FILES.length} * 7 = ${FILES.length * 7}`,
    });
    expect(result.messages.at(-1)).toEqual({ role: "assistant", content: result.output });
  });

  it("gives a tool's isError result to the model, which corrects itself", { timeout: SLOW }, async () => {
    const openai = await scripted([
      { toolCalls: [{ id: "bad", name: "calculator", arguments: { expression: "3 * / 7" } }] },
      (request) =>
        lastToolResult(request).startsWith("Error:")
          ? { toolCalls: [{ id: "good", name: "calculator", arguments: { expression: "3 * 7" } }] }
          : { content: "The error never reached me." },
      (request) => ({ content: `Fixed it: ${lastToolResult(request)}` }),
    ]);
    const agent = new Agent({ model: modelFor(openai), tools: scenario.tools });
    const result = await agent.run("What is 3 times 7?");

    expect(result.output).toBe("Fixed it: 3 * 7 = 21");
    const failed = result.steps[0]!.toolResults[0]!;
    expect(failed.output?.isError).toBe(true);
    expect(failed.message).toMatchObject({ role: "tool", toolCallId: "bad", isError: true });
    const sent = openai.requests[1]!.body.messages.at(-1)!;
    expect(sent.tool_call_id).toBe("bad");
    expect(sent.content).toMatch(/^Error: Cannot evaluate "3 \* \/ 7": unexpected "\/" at position 5/);
  });

  it("stops a model that keeps calling tools at maxSteps with a clear error", { timeout: SLOW }, async () => {
    const openai = await scripted(() => ({
      toolCalls: [{ name: "calculator", arguments: { expression: "1 + 1" } }],
    }));
    const agent = new Agent({ model: modelFor(openai), tools: scenario.tools, maxSteps: 3 });
    const error = await agent.run("Loop forever").catch((e: unknown) => e);

    expect(error).toBeInstanceOf(MaxStepsError);
    expect((error as MaxStepsError).message).toBe(
      "The agent stopped after 3 steps without a final answer: the model kept calling tools (last: calculator). Raise maxSteps if the task needs more.",
    );
    expect((error as MaxStepsError).steps).toHaveLength(3);
    expect(openai.requests).toHaveLength(3);
    // The calls of the last step were not run: two tool results reached the model, no more.
    expect((error as MaxStepsError).steps.map((step) => step.toolResults.length)).toEqual([1, 1, 0]);
  });
});

describe("aborting a run", () => {
  it("cancels the in-flight MCP call: the server handler's signal aborts", { timeout: SLOW }, async () => {
    const waiter = await startWaitServer();
    try {
      const openai = await scripted([{ toolCalls: [{ id: "w", name: "wait", arguments: {} }] }]);
      const agent = new Agent({ model: modelFor(openai), tools: waiter.tools });
      const controller = new AbortController();
      const events: AgentEvents["toolResult"][] = [];
      const run = agent.run("Wait for me", {
        signal: controller.signal,
        on: { toolResult: (e) => events.push(e) },
      });
      const outcome = run.catch((e: unknown) => e);

      await waiter.started;
      controller.abort();

      const error = await outcome;
      expect((error as Error).name).toBe("AbortError");
      expect(await waiter.cancelled).toBe(true);
      expect(events).toEqual([]); // no result was made up for the cancelled call
      expect(openai.requests).toHaveLength(1);
    } finally {
      await waiter.close();
    }
  });

  it("rejects at once when the signal is already aborted, without asking the model", async () => {
    const openai = await scripted([{ content: "never" }]);
    const agent = new Agent({ model: modelFor(openai) });
    const error = await agent.run("hi", { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect((error as Error).name).toBe("AbortError");
    expect(openai.requests).toHaveLength(0);
  });
});
