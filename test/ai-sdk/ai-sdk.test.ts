/**
 * The seed article's scenario with the Vercel AI SDK's `generateText` and its mock language model
 * over real MCP servers: server-filesystem (stdio) and our calculator (Streamable HTTP).
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toAiSdkTools, toModelOutput } from "../../src/ai-sdk/index.js";
import { countFiles, FILES, type Scenario, startScenario, startWaitServer } from "../agent/scenario.js";

type CallOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;
type Turn = GenerateResult | ((options: CallOptions) => GenerateResult);

const SLOW = 60_000;
let scenario: Scenario;

beforeAll(async () => {
  scenario = await startScenario();
}, SLOW);
afterAll(() => scenario?.close());

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

const callTool = (toolCallId: string, toolName: string, input: Record<string, unknown>): GenerateResult => ({
  content: [{ type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage,
  warnings: [],
});
const say = (text: string): GenerateResult => ({
  content: [{ type: "text", text }],
  finishReason: { unified: "stop", raw: "stop" },
  usage,
  warnings: [],
});

/** A mock model that replays `turns`, one per call, and honours the abort signal as providers do. */
function scripted(turns: Turn[]): MockLanguageModelV3 {
  let index = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      options.abortSignal?.throwIfAborted();
      const turn = turns[index++];
      if (turn === undefined) throw new Error(`The script has no turn ${index}`);
      return typeof turn === "function" ? turn(options) : turn;
    },
  });
}

/** The tool result answering `id` in a prompt, as the model gets it. */
function resultOf(options: CallOptions, id: string): { type: string; value?: unknown } {
  for (const message of options.prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-result" && part.toolCallId === id)
        return part.output as { type: string; value?: unknown };
    }
  }
  throw new Error(`No tool result answers ${id}`);
}
const textOf = (options: CallOptions, id: string): string => String(resultOf(options, id).value);

describe("AI SDK generateText over MCP tools", () => {
  it("lists the temp dir, counts its files and multiplies the count with the calculator", {
    timeout: SLOW,
  }, async () => {
    const model = scripted([
      callTool("ls", "list_directory", { path: scenario.dir }),
      (options) => callTool("calc", "calculator", { expression: `${countFiles(textOf(options, "ls"))} * 7` }),
      (options) =>
        say(`The folder holds ${countFiles(textOf(options, "ls"))} files; ${textOf(options, "calc")}.`),
    ]);
    const result = await generateText({
      model,
      tools: toAiSdkTools(scenario.tools),
      stopWhen: stepCountIs(5),
      system: "Use the tools.",
      prompt: `How many files are in ${scenario.dir}? Multiply the count by 7.`,
    });

    expect(result.text).toBe(
      `The folder holds ${FILES.length} files; ${FILES.length} * 7 = ${FILES.length * 7}.`,
    );
    expect(result.steps).toHaveLength(3);
    expect(model.doGenerateCalls).toHaveLength(3);
    const offered = model.doGenerateCalls[0]!.tools ?? [];
    expect(offered.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["list_directory", "read_text_file", "calculator"]),
    );
    expect(offered.find((tool) => tool.name === "calculator")).toMatchObject({
      type: "function",
      inputSchema: {
        type: "object",
        properties: { expression: { type: "string" } },
        required: ["expression"],
      },
    });
    const listing = textOf(model.doGenerateCalls[1]!, "ls");
    for (const file of FILES) expect(listing).toContain(`[FILE] ${file}`);
    // execute's return value is the whole ToolOutput; the model got its text.
    const calc = result.steps[1]!.toolResults[0]!;
    expect(calc.output).toMatchObject({ isError: false, text: `${FILES.length} * 7 = ${FILES.length * 7}` });
  });

  it("gives an isError result to the model as error-text, and generation goes on", {
    timeout: SLOW,
  }, async () => {
    const model = scripted([
      callTool("bad", "calculator", { expression: "3 * / 7" }),
      (options) =>
        resultOf(options, "bad").type === "error-text"
          ? callTool("good", "calculator", { expression: "3 * 7" })
          : say("The error never reached me."),
      (options) => say(`Fixed it: ${textOf(options, "good")}`),
    ]);
    const result = await generateText({
      model,
      tools: toAiSdkTools(scenario.tools),
      stopWhen: stepCountIs(5),
      prompt: "What is 3 times 7?",
    });
    expect(result.text).toBe("Fixed it: 3 * 7 = 21");
    expect(resultOf(model.doGenerateCalls[1]!, "bad")).toEqual({
      type: "error-text",
      value: 'Cannot evaluate "3 * / 7": unexpected "/" at position 5',
    });
  });

  it("an aborted generation cancels the in-flight MCP call: the server handler's signal aborts", {
    timeout: SLOW,
  }, async () => {
    const waiter = await startWaitServer();
    try {
      const model = scripted([callTool("w", "wait", {})]);
      const controller = new AbortController();
      const outcome = generateText({
        model,
        tools: toAiSdkTools(waiter.tools),
        prompt: "Wait",
        stopWhen: stepCountIs(5),
        abortSignal: controller.signal,
      }).catch((e: unknown) => e);
      await waiter.started;
      controller.abort();
      const error = (await outcome) as Error;
      expect(error.name).toBe("AbortError");
      // The run stopped there: the model was not asked again.
      expect(model.doGenerateCalls).toHaveLength(1);
      expect(await waiter.cancelled).toBe(true);
    } finally {
      await waiter.close();
    }
  });
});

describe("toModelOutput", () => {
  it("sends text, errors, and images as media", () => {
    expect(toModelOutput({ text: "ok", content: [{ type: "text", text: "ok" }], isError: false })).toEqual({
      type: "text",
      value: "ok",
    });
    expect(toModelOutput({ text: "no", content: [], isError: true })).toEqual({
      type: "error-text",
      value: "no",
    });
    const image = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" };
    expect(
      toModelOutput({ text: "a chart", content: [{ type: "text", text: "a chart" }, image], isError: false }),
    ).toEqual({
      type: "content",
      value: [
        { type: "text", text: "a chart" },
        { type: "media", data: "iVBORw0KGgo=", mediaType: "image/png" },
      ],
    });
  });
});
