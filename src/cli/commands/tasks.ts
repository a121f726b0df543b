/** `tasks list|get|cancel [taskId]`: the tasks a server runs for this client. */
import type { Command } from "commander";
import type { TaskInfo } from "../../client/task.js";
import { type CliContext, clientCommand, print, printJson } from "../shared/command.js";
import { Exit, UsageError } from "../shared/errors.js";
import { fields, table } from "../shared/format.js";
import { peerText } from "../shared/peer-text.js";
import type { Session } from "../shared/session.js";
import { out } from "../shared/terminal.js";

const ACTIONS = ["list", "get", "cancel"];

const heading = (line: string) => out("bold", line);

const name = (text: unknown) => peerText(text, "name");

/** A task's fields, inert: they are the server's. */
function describe(task: TaskInfo): string {
  return fields([
    ["taskId", name(task.taskId)],
    ["status", name(task.status)],
    ["message", task.statusMessage === undefined ? undefined : peerText(task.statusMessage, "message")],
    ["created", name(task.createdAt)],
    ["updated", name(task.lastUpdatedAt)],
    ["ttl", task.ttl === null ? "unlimited" : `${name(task.ttl)} ms`],
    ["poll", task.pollInterval === undefined ? undefined : `${name(task.pollInterval)} ms`],
  ]);
}

async function run(
  session: Session,
  [action, taskId]: string[],
  options: Session["options"],
): Promise<number> {
  const { client, signal, timeout } = session;
  if (action === "list") {
    const tasks = await client.listTasks({ signal, timeout });
    if (options.json) printJson(tasks);
    else if (tasks.length === 0) print("no tasks");
    else {
      const rows = tasks.map((task) => [
        name(task.taskId),
        name(task.status),
        name(task.lastUpdatedAt),
        peerText(task.statusMessage ?? "", "message"),
      ]);
      print(table(["TASK", "STATUS", "UPDATED", "MESSAGE"], rows, { full: options.full === true, heading }));
    }
    return Exit.Ok;
  }
  const task = await client.task(taskId!, { signal, timeout });
  if (action === "cancel") {
    await task.cancel();
    await task.status();
  }
  if (options.json) printJson(task.info);
  else print(describe(task.info));
  if (action === "get" && task.info.status === "completed" && !options.json) {
    const result = await task.result();
    print(`\n${peerText(result.text(), "content") || "(no text content)"}`);
  }
  return Exit.Ok;
}

export function registerTasksCommand(program: Command, context: CliContext): void {
  clientCommand(program, context, {
    name: "tasks",
    operands: "<list|get|cancel> [taskId]",
    count: { min: 1, max: 2 },
    summary: "List, show or cancel the tasks a server runs",
    details: `A tool the server runs as a task (the tasks extension, or the tasks of 2025-11-25)
answers with a task id; mcpkit call waits for it. list shows a session's tasks (2025-11-25:
the stateless tasks extension has no listing); get shows one, with its result once completed;
cancel asks the server to stop it.`,
    examples: [
      [
        "mcpkit tasks list http://localhost:3000/mcp",
        "the tasks of mcpkit serve everything --http --port 3000",
      ],
      ["mcpkit tasks get 786512e2-9e0d-44bd-8f29-789f320fe840 http://localhost:3000/mcp", "one task"],
      ["mcpkit tasks cancel 786512e2-9e0d-44bd-8f29-789f320fe840 http://localhost:3000/mcp", "cancel it"],
    ],
    check: ([action, taskId]) => {
      if (!ACTIONS.includes(action!))
        throw new UsageError(`unknown action "${action}": use list, get or cancel`);
      if (action !== "list" && taskId === undefined) throw new UsageError(`tasks ${action} needs a task id`);
      if (action === "list" && taskId !== undefined) throw new UsageError("tasks list takes no task id");
    },
    run,
  });
}
