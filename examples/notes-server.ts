// A notes server over stdio: resources, a resource template with completion, a prompt, and tools that
// reach back to the client (logging, sampling, elicitation, roots). examples/notes-client.ts drives it.

import { ErrorCode, McpError } from "mcpkit";
import { McpServer } from "mcpkit/server";
import { z } from "zod";

const notes = new Map([
  ["groceries", "Milk, eggs, and the good bread from the corner shop."],
  ["meeting", "Thursday 10:00 with Ada: agree on the release date, then lunch."],
]);

function noteText(id: string): string {
  const text = notes.get(id);
  if (text === undefined) throw new McpError(ErrorCode.ResourceNotFound, `No note "${id}"`, { id });
  return text;
}

const server = new McpServer({ name: "notes", version: "1.0.0" })
  .resource("notes://index", { name: "index", mimeType: "text/plain" }, () => [...notes.keys()].join("\n"))
  .resourceTemplate(
    "notes://{id}",
    { name: "note", mimeType: "text/plain" },
    (_uri, { id }) => noteText(String(id)),
    { complete: { id: (typed) => [...notes.keys()].filter((id) => id.startsWith(typed)) } },
  )
  .prompt(
    "summarise",
    { description: "Summarise a note", arguments: z.object({ id: z.string() }) },
    ({ id }) => `Summarise this note in one sentence:\n\n${noteText(id)}`,
  )
  .tool(
    "summarise_note",
    { description: "Summarise a note with the client's LLM", input: z.object({ id: z.string() }) },
    async ({ id }, ctx) => {
      // In a stateless (2026-07-28) request, a handler that asks the client runs again with the
      // answer, so what comes before the question happens twice: log after it.
      const answer = await ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: `Summarise: ${noteText(id)}` } }],
        maxTokens: 100,
      });
      ctx.log("info", `summarised ${id} with ${answer.model}`);
      const blocks = Array.isArray(answer.content) ? answer.content : [answer.content];
      return blocks.map((block) => (block.type === "text" ? block.text : `(${block.type})`)).join("\n");
    },
  )
  .tool(
    "add_note",
    { description: "Add a note; asks the user for its id", input: z.object({ text: z.string() }) },
    async ({ text }, ctx) => {
      const answer = await ctx.elicit({
        message: `Save "${text}" under which id?`,
        requestedSchema: {
          type: "object",
          properties: { id: { type: "string", description: "Short id, e.g. todo" } },
          required: ["id"],
        },
      });
      if (answer.action !== "accept") return `Not saved: the user chose ${answer.action}`;
      const id = String(answer.content?.id);
      notes.set(id, text);
      server.resourceUpdated("notes://index"); // subscribed clients get notifications/resources/updated
      return `Saved as notes://${id}`;
    },
  )
  .tool("workspace", { description: "The client's roots", input: z.object({}) }, async (_args, ctx) =>
    (await ctx.listRoots()).map((root) => `${root.name ?? "?"}: ${root.uri}`).join("\n"),
  );

await server.serveStdio();
