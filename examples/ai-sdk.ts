// MCP tools in the Vercel AI SDK's generateText, here with the SDK's mock model replaying a script;
// any AI SDK model (openai("gpt-4o-mini"), anthropic(…)…) takes its place.
// Usage: node build/examples/ai-sdk.js
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { toAiSdkTools } from "mcpkit/ai-sdk";
import { countFiles, startDemoServers } from "./demo-servers.js";

type Call = Parameters<MockLanguageModelV3["doGenerate"]>[0];
type Answer = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};
const callTool = (toolName: string, input: object): Answer => ({
  content: [{ type: "tool-call", toolCallId: `call_${toolName}`, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: undefined },
  usage,
  warnings: [],
});
const say = (text: string): Answer => ({
  content: [{ type: "text", text }],
  finishReason: { unified: "stop", raw: undefined },
  usage,
  warnings: [],
});

/** What the named tool answered, as the model is shown it. */
function toolResult(call: Call, name: string): string {
  for (const message of call.prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-result" && part.toolName === name && "value" in part.output)
        return String(part.output.value);
    }
  }
  throw new Error(`${name} has not answered yet`);
}

const { dir, mcp, close } = await startDemoServers();

const script: ((call: Call) => Answer)[] = [
  () => callTool("list_directory", { path: dir }),
  (call) => callTool("calculator", { expression: `${countFiles(toolResult(call, "list_directory"))} * 7` }),
  (call) => say(`${toolResult(call, "calculator")}: seven times the files in the folder.`),
];
let turn = 0;
const model = new MockLanguageModelV3({ doGenerate: async (call) => script[turn++]!(call) });

try {
  const { text, steps } = await generateText({
    model,
    tools: toAiSdkTools(mcp.tools()),
    stopWhen: stepCountIs(8),
    prompt: `How many files are in ${dir}? Multiply the count by 7.`,
  });
  for (const step of steps) {
    for (const { toolName, input, output } of step.toolResults) {
      console.log(`${toolName} ${JSON.stringify(input)} → ${String(output.text).replaceAll("\n", " | ")}`);
    }
  }
  console.log(text);
} finally {
  await close();
}
