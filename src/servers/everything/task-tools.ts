import { McpError } from "../../jsonrpc/errors.js";
import type { McpServer } from "../../server/server.js";
import { pause } from "../../util/pause.js";

const CONFIRM = {
  type: "object" as const,
  properties: { confirm: { type: "boolean" } },
  required: ["confirm"],
};

const NAME = {
  type: "object" as const,
  properties: { name: { type: "string" } },
  required: ["name"],
};

/**
 * The tools the tasks conformance scenarios call (SEP-2663 and the tasks of 2025-11-25): one that
 * never runs as a task, tasks that sleep, fail, fail at the protocol level or ask for input, and
 * one that asks by multi round-trip before its task starts.
 */
export function registerTaskTools(server: McpServer): void {
  server
    .tool(
      "greet",
      {
        description: "Greets by name; never a task",
        input: { type: "object", properties: { name: { type: "string" } } },
      },
      ({ name }) => `Hello, ${name ?? "World"}!`,
    )
    .tool(
      "slow_compute",
      {
        description: "Sleeps `seconds` seconds as a task, then answers; stops when cancelled",
        input: { type: "object", properties: { seconds: { type: "number" }, label: { type: "string" } } },
        task: "optional",
      },
      async ({ seconds = 1, label = "" }, ctx) => {
        const total = Math.max(0, Math.min(Number(seconds) || 0, 600));
        for (let done = 0; done < total; done++) {
          await pause(1000, ctx.signal);
          ctx.progress(done + 1, total, label || undefined);
        }
        return `Computed ${label || "result"} in ${total} s`;
      },
    )
    .tool(
      "failing_job",
      { description: "Ends with a tool error after about a second; only as a task", task: "required" },
      async (_args, ctx) => {
        await pause(1000, ctx.signal);
        throw new Error("failing_job failed, as it always does");
      },
    )
    .tool(
      "protocol_error_job",
      { description: "Fails with a JSON-RPC error, as a task", task: "optional" },
      async (_args, ctx) => {
        await pause(100, ctx.signal);
        throw new McpError(-32603, "protocol_error_job hit an internal error");
      },
    )
    .tool(
      "confirm_delete",
      {
        description: "Asks the user to confirm deleting a file, as a task",
        input: { type: "object", properties: { filename: { type: "string" } } },
        task: "optional",
      },
      async ({ filename = "the file" }, ctx) => {
        const answer = await ctx.elicit({ message: `Delete ${filename}?`, requestedSchema: CONFIRM });
        const confirmed = answer.action === "accept" && answer.content?.confirm === true;
        return confirmed ? `Deleted ${filename}` : `Kept ${filename}`;
      },
    )
    .tool(
      "multi_input",
      { description: "Asks two questions at once, as a task", task: "optional" },
      async (_args, ctx) => {
        const [first, second] = await Promise.all([
          ctx.elicit({ message: "First name?", requestedSchema: NAME }),
          ctx.elicit({ message: "Second name?", requestedSchema: NAME }),
        ]);
        return `Got ${first.content?.name ?? first.action} and ${second.content?.name ?? second.action}`;
      },
    )
    .tool(
      "test_tool_with_task",
      {
        description: "Asks for a name by multi round-trip, then greets it as a task",
        task: { support: "required", startedByHandler: true },
      },
      async (_args, ctx) => {
        const answer = await ctx.elicit(
          { message: "What is your name?", requestedSchema: NAME },
          { key: "user_name" },
        );
        const name = answer.action === "accept" ? String(answer.content?.name ?? "") : answer.action;
        await ctx.startTask?.();
        await pause(200, ctx.signal);
        return `Hello, ${name}!`;
      },
    );
}
