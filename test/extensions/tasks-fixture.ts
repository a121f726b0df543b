import { type TasksOptions, tasks } from "../../src/extensions/tasks/index.js";
import { McpServer } from "../../src/server/index.js";

/** Waits `ms`, or rejects when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

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
            await sleep(ms / steps, ctx.signal);
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
        await sleep(20, ctx.signal);
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
