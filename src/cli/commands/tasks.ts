/** `tasks list|get|cancel [taskId]`: the tasks a server runs for this client. */
import type { Command } from "commander";
import type { TaskInfo } from "../../client/tasks/task.js";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { type CliContext, clientCommand, print, printJson } from "../shared/command.js";
import { describeError, Exit, UsageError } from "../shared/errors.js";
import { fields, table } from "../shared/format.js";
import { peerText } from "../shared/peer-text.js";
import type { Session } from "../shared/session.js";
import { note } from "../shared/status.js";
import { out } from "../shared/terminal.js";

const ACTIONS = ["list", "get", "cancel"];

const heading = (line: string) => out("bold", line);

const name = (text: unknown) => peerText(text, "name");

/** A task's fields, one per line, inert: they are the server's. */
export function describeTask(task: TaskInfo): string {
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

/** How to reach a task without a listing: by the id `call --task` prints. */
const BY_ID =
  "start a task with mcpkit call TOOL --task (it prints the task's id), then mcpkit tasks get ID or mcpkit tasks cancel ID, with the same server";

/**
 * Why a new run may list no task: a 2025-11-25 server lists the tasks of the session that created
 * them (or of the signed-in user), and each run of mcpkit is a new session.
 */
const SESSION_NOTE = `mcpkit: a server lists the tasks of the session that created them (or of the signed-in user), and each mcpkit run is a new session; a task of another session is still reached by its id: ${BY_ID}`;

/** The tasks the server lists; a revision or server without a listing is a usage error saying what works. */
async function listTasks({ client, signal, timeout }: Session): Promise<TaskInfo[]> {
  try {
    return await client.listTasks({ signal, timeout });
  } catch (error) {
    if (!(error instanceof McpError) || error.code !== ErrorCode.MethodNotFound) throw error;
    throw new UsageError(`no task listing (${describeError(error)}): a task is reached by its id; ${BY_ID}`);
  }
}

async function run(
  session: Session,
  [action, taskId]: string[],
  options: Session["options"],
): Promise<number> {
  const { client, signal, timeout } = session;
  if (action === "list") {
    const tasks = await listTasks(session);
    if (options.json) printJson(tasks);
    else if (tasks.length === 0) {
      print("no tasks");
      if (!options.quiet) note(SESSION_NOTE);
    } else {
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
  else print(describeTask(task.info));
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
answers with a task id; mcpkit call waits for it, and mcpkit call --task prints the task
without waiting. get shows a task by its id, with its result once completed; cancel asks the
server to stop it. list shows the tasks a server lists: 2026-07-28 has no listing (exit 2), and
a 2025-11-25 server lists those of the session that created them (or of the signed-in user):
each mcpkit run is a new session, so a task started by an earlier run is reached by its id.`,
    examples: [
      [
        "mcpkit call slow_compute --arg seconds=60 --task http://localhost:3000/mcp",
        "start a task on mcpkit serve everything --http --port 3000; prints its id",
      ],
      ["mcpkit tasks get 786512e2-9e0d-44bd-8f29-789f320fe840 http://localhost:3000/mcp", "that task"],
      ["mcpkit tasks cancel 786512e2-9e0d-44bd-8f29-789f320fe840 http://localhost:3000/mcp", "cancel it"],
      [
        "mcpkit tasks list --protocol 2025-11-25 http://localhost:3000/mcp",
        "the tasks a 2025-11-25 server lists for this session or signed-in user",
      ],
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
