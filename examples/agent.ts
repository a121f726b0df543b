// Many servers, and an agent: a MultiServerClient holds a filesystem server (stdio) and a calculator
// (Streamable HTTP); an Agent answers a question with their tools.
// Usage: node build/examples/agent.js
// The model is scripted (offline) unless OPENAI_API_KEY or OPENAI_BASE_URL is set: then it is
// OpenAIChatModel (OpenAI, or any OpenAI-compatible server: Ollama, vLLM…; OPENAI_MODEL names it).
import { Agent, type ChatModel, OpenAIChatModel } from "mcpkit/agent";
import { countFiles, startDemoServers } from "./demo-servers.js";
import { callTool, say, scriptedChatModel, toolResult } from "./scripted-chat-model.js";

const { dir, mcp, close } = await startDemoServers();
const question = `How many files are in ${dir}? Multiply the count by 7.`;

const model: ChatModel =
  process.env.OPENAI_API_KEY || process.env.OPENAI_BASE_URL
    ? new OpenAIChatModel({ model: process.env.OPENAI_MODEL ?? "gpt-4o-mini" })
    : scriptedChatModel([
        () => callTool("list_directory", { path: dir }),
        (messages) => {
          const files = countFiles(toolResult(messages, "list_directory"));
          return callTool("calculator", { expression: `${files} * 7` });
        },
        (messages) => {
          const files = countFiles(toolResult(messages, "list_directory"));
          return say(`The folder holds ${files} files, and ${toolResult(messages, "calculator")}.`);
        },
      ]);

const agent = new Agent({
  model,
  tools: mcp.tools(), // every server's tools; mcp.tools({ servers: ["fs"] }) for a subset
  maxSteps: 8,
  system: "Use the tools; do arithmetic with the calculator.",
});
agent.on("toolCall", ({ call }) => console.log(`→ ${call.name} ${call.arguments}`));
agent.on("toolResult", ({ call, message }) =>
  console.log(
    `← ${call.name}${message.isError ? " (error)" : ""}: ${message.content.replaceAll("\n", " | ")}`,
  ),
);

try {
  const { output, steps } = await agent.run(question);
  console.log(`${output} (${steps.length} steps)`);
} finally {
  await close(); // every server closed, no child process left
}
