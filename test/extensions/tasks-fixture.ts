import { setTimeout as work } from "node:timers/promises";
import { type TasksOptions, tasks } from "../../src/extensions/tasks/index.js";
import { McpServer } from "../../src/server/index.js";

/** What the tools of `taskServer` saw. */
export interface Seen {
  aborted: string[];
  taskIds: string[];
}

/** A server with task tools: one that runs `seconds`, one that asks for confirmation, one instant. */
export function taskServer(options: TasksOptions = {}) {
  const seen: Seen = { aborted: [], taskIds: [] };
  const extension = tasks({ pollInterval: 50, ...options });
  const server = new McpServer({ name: "tasks", version: "1" }, { extensions: [extension] })
    .tool(
      "run",
      {
        input: { type: "object", properties: { ms: { type: "number" }, label: { type: "string" } } },
        task: "optional",
      },
      async ({ ms = 0, label = "run" }, ctx) => {
        if (ctx.task) seen.taskIds.push(ctx.task.id);
        const steps = Math.max(1, Math.round(ms / 500));
        try {
          for (let i = 1; i <= steps; i++) {
            await work(ms / steps, undefined, { signal: ctx.signal });
            ctx.progress(i, steps, label);
          }
        } catch (error) {
          seen.aborted.push(label);
          throw error;
        }
        return `${label} done`;
      },
    )
    .tool(
      "confirm",
      { input: { type: "object", properties: { file: { type: "string" } } }, task: "required" },
      async ({ file }, ctx) => {
        await work(20, undefined, { signal: ctx.signal });
        const answer = await ctx.elicit({
          message: `Delete ${file}?`,
          requestedSchema: {
            type: "object",
            properties: { confirm: { type: "boolean" } },
            required: ["confirm"],
          },
        });
        return answer.action === "accept" && answer.content?.confirm === true
          ? `deleted ${file}`
          : `kept ${file}`;
      },
    )
    .tool("now", {}, () => "inline");
  return { server, extension, seen };
}
