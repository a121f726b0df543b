// MCP tools in a LangChain.js agent (createAgent, which runs on LangGraph), here with a scripted
// chat model; any LangChain chat model (ChatOpenAI, ChatAnthropic…) takes its place.
// Usage: node build/examples/langgraph.js
import { AIMessage } from "@langchain/core/messages";
import { createAgent } from "langchain";
import { toLangChainTools } from "mcpkit/langchain";
import { countFiles, startDemoServers } from "./demo-servers.js";
import { callTool, ScriptedLangChainModel, toolResult } from "./scripted-langchain-model.js";

const { dir, mcp, close } = await startDemoServers();

const model = new ScriptedLangChainModel([
  () => callTool("list_directory", { path: dir }),
  (messages) =>
    callTool("calculator", { expression: `${countFiles(toolResult(messages, "list_directory"))} * 7` }),
  (messages) => new AIMessage(`${toolResult(messages, "calculator")}, seven times the files in the folder.`),
]);

// LangGraph's own createReactAgent({ llm: model, tools }) takes the same tools.
const agent = createAgent({ model, tools: toLangChainTools(mcp.tools()), systemPrompt: "Use the tools." });

try {
  const state = await agent.invoke({
    messages: [{ role: "user", content: `How many files are in ${dir}? Multiply the count by 7.` }],
  });
  for (const message of state.messages) {
    const calls = AIMessage.isInstance(message) ? (message.tool_calls ?? []) : [];
    const said =
      calls.map((call) => `→ ${call.name} ${JSON.stringify(call.args)}`).join(", ") || message.text;
    console.log(`${message.type}: ${said.replaceAll("\n", " | ")}`);
  }
} finally {
  await close();
}
