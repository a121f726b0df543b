// A client of examples/notes-server.ts: it answers the server's sampling, elicitation and roots
// requests, hears its logs and resource updates, and reads, prompts and completes.
// Usage: node build/examples/notes-client.js
import { fileURLToPath } from "node:url";
import { McpClient } from "mcpkit/client";

const serverScript = fileURLToPath(new URL("./notes-server.js", import.meta.url));

const client = await McpClient.connect({
  command: process.execPath,
  args: [serverScript],
  // A real client asks its LLM here (after the user agreed); this one answers from a script.
  sampling: async (params) => {
    const [first] = params.messages;
    const asked =
      first && !Array.isArray(first.content) && first.content.type === "text" ? first.content.text : "";
    return {
      role: "assistant",
      content: { type: "text", text: `In short: ${asked.replace(/^Summarise: /, "").split(",")[0]}.` },
      model: "scripted-llm",
    };
  },
  // A real client shows the form to the user; this one accepts with a fixed answer.
  elicitation: async (params) => {
    console.log(`  the server asks: ${params.message}`);
    return { action: "accept", content: { id: "todo" } };
  },
  roots: [{ uri: "file:///work", name: "work" }],
});
client.on("log", (entry) => console.log(`  log (${entry.level}): ${JSON.stringify(entry.data)}`));
await client.setLoggingLevel("info"); // no level set, no log messages
const updated = new Promise<string>((resolve) => client.on("resourceUpdated", ({ uri }) => resolve(uri)));

const textOf = async (uri: string) => {
  const [contents] = (await client.readResource(uri)).contents;
  return contents && "text" in contents ? contents.text : "";
};
console.log("notes://index:", JSON.stringify(await textOf("notes://index")));
console.log("notes://meeting:", JSON.stringify(await textOf("notes://meeting")));

const { values } = await client.complete(
  { type: "ref/resource", uri: "notes://{id}" },
  { name: "id", value: "g" },
);
console.log("ids starting with g:", values);

const prompt = await client.getPrompt("summarise", { id: "groceries" });
const [message] = prompt.messages;
console.log("prompt:", message?.content.type === "text" ? JSON.stringify(message.content.text) : "");

console.log("summarise_note (the server samples the client's LLM):");
console.log(`  → ${(await client.callTool("summarise_note", { id: "groceries" })).text()}`);

await client.subscribeResource("notes://index");
console.log("add_note (the server elicits an id from the user):");
console.log(`  → ${(await client.callTool("add_note", { text: "Water the plants" })).text()}`);
console.log("resource updated:", await updated);

console.log("workspace (the server lists the client's roots):");
console.log(`  → ${(await client.callTool("workspace", {})).text()}`);
client.setRoots([{ uri: "file:///other", name: "other" }]); // sends notifications/roots/list_changed
console.log(`  → ${(await client.callTool("workspace", {})).text()}`);

// The same tool as an agent's tool: `invoke` gives what a model reads, `call` the server's result
// as it came (for code that passes it on).
const workspace = (await client.asTools()).find((tool) => tool.name === "workspace");
if (workspace) {
  const output = await workspace.invoke({});
  const result = await workspace.call({});
  console.log(`as a tool: ${JSON.stringify(output.text)}; as it came: ${JSON.stringify(result.content)}`);
}

await client.close();
