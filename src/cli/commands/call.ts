/** `call <tool> [json] [--arg k=v …]`: call a tool and show its result. */
import type { Command } from "commander";
import type { McpClient } from "../../client/client.js";
import type { ToolTask } from "../../client/tasks/task.js";
import type { ToolResult } from "../../client/tools/tool-result.js";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { TaskStatus } from "../../protocol/features/tasks.js";
import type { Tool } from "../../protocol/types/tools.js";
import {
  addMetaOption,
  type CliContext,
  clientCommand,
  print,
  printJson,
  printResult,
} from "../shared/command.js";
import { renderBlock, renderJson } from "../shared/content.js";
import { describeError, Exit, UsageError } from "../shared/errors.js";
import { collect, parseJsonObject, splitPair } from "../shared/options.js";
import { peerText } from "../shared/peer-text.js";
import { checkArguments, propertiesOf, typedValue } from "../shared/schema.js";
import type { Session } from "../shared/session.js";
import { clearStatus, note, progressReporter, setStatus } from "../shared/status.js";
import { didYouMean } from "../shared/suggest.js";
import { describeTask } from "./tasks.js";

interface CallOptions {
  arg?: string[];
  validate?: boolean;
  progress?: boolean;
  meta?: boolean;
  task?: boolean;
}

/** The tool as listed, or a usage error naming the tools there are. */
async function findTool(client: McpClient, name: string, signal: AbortSignal): Promise<Tool | undefined> {
  if (!client.capabilities.tools) throw new UsageError("the server does not offer tools");
  const tools = await client.listTools({ signal });
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    const names = tools.map((t) => t.name);
    const known = names.map((n) => peerText(n, "name")).join(", ") || "none";
    throw new UsageError(`no tool "${name}" on this server${didYouMean(name, names)} (it has: ${known})`);
  }
  return tool;
}

/** The arguments: the JSON object, then each `--arg`, typed by the tool's input schema. */
export function toolArguments(
  tool: Tool | undefined,
  json: string | undefined,
  pairs: string[] = [],
): Record<string, unknown> {
  const args = json === undefined ? {} : parseJsonObject(json, "the arguments");
  const { properties } = propertiesOf(tool?.inputSchema);
  for (const pair of pairs) {
    const [key, text] = splitPair(pair, "--arg");
    args[key] = typedValue(properties[key], text, key);
  }
  return args;
}

/** Status line on a terminal, lines with `--progress`, nothing with `--no-progress` or `--quiet`. */
function progressMode(options: { quiet?: boolean; progress?: boolean }): "status" | "lines" | "off" {
  if (options.quiet || options.progress === false) return "off";
  if (process.stderr.isTTY) return "status";
  return options.progress ? "lines" : "off";
}

async function call(session: Session, operands: string[], options: CallOptions & Session["options"]) {
  const { client, signal, timeout, deadline } = session;
  const [name, json] = operands as [string, string | undefined];
  const tool = await findTool(client, name, signal);
  const args = toolArguments(tool, json, options.arg);
  if (tool && options.validate !== false) await checkArguments(tool, args);
  const mode = progressMode(options);
  // A --timeout given bounds the whole call, a task's run included, not only each request.
  const overall = deadline === undefined ? undefined : AbortSignal.timeout(deadline);
  const requestOptions = {
    signal: overall ? AbortSignal.any([signal, overall]) : signal,
    timeout,
    resetTimeoutOnProgress: true,
    onProgress: progressReporter(name, mode),
  };
  let task: ToolTask | undefined;
  let result: ToolResult;
  try {
    // The task's handle, if the server runs the tool as one: to follow it, show it (--task), or
    // cancel it at the deadline.
    task = await client.callTool(name, args, { ...requestOptions, task: true });
    if (options.task && task.id !== "") return startedTask(task, name, options);
    result = await followTask(task, name, mode);
  } catch (error) {
    if (overall?.aborted && !signal.aborted) throw await pastDeadline(session, name, deadline!, task);
    throw error;
  }
  clearStatus();
  if (options.task) note(`mcpkit: the server answered "${name}" at once, not as a task`);
  if (options.json) printResult(result, options.meta);
  else {
    const full = options.full === true;
    const prefix = result.isError ? "error" : undefined;
    const parts = result.content.map((block) => renderBlock(block, full, prefix));
    if (result.structuredContent !== undefined) {
      parts.push(`[structuredContent]\n${renderJson(result.structuredContent, full)}`);
    }
    print(parts.length > 0 ? parts.join("\n\n") : "(no content)");
  }
  if (!result.isError) return Exit.Ok;
  note(`mcpkit: the tool "${name}" reported an error (isError); exit code 1`);
  return Exit.ToolError;
}

/** Waits for a task's result; on a terminal (`status` mode), shows its status until it ends. */
async function followTask(task: ToolTask, name: string, mode: string): Promise<ToolResult> {
  if (task.id === "" || mode !== "status") return task.result();
  for await (const info of task) {
    const message = info.statusMessage ? `  ${peerText(info.statusMessage, "message")}` : "";
    setStatus(`${name}: task ${peerText(task.id, "name")} ${peerText(info.status, "name")}${message}`);
  }
  return task.result();
}

/** `call --task`: the task the call started, and how to reach it, without waiting for it. */
function startedTask(task: ToolTask, name: string, options: CallOptions & Session["options"]): number {
  clearStatus();
  if (options.json) printJson(task.info);
  else print(describeTask(task.info));
  const id = peerText(task.id, "name");
  note(
    `mcpkit: "${name}" runs as task ${id}: mcpkit tasks get ${id} (with the same server) shows it, and its result once completed`,
  );
  return Exit.Ok;
}

const ENDED: TaskStatus[] = ["completed", "failed", "cancelled"];

/** `2 s`, `500 ms`. */
const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${ms / 1000} s`);

/**
 * The error for a call that passed its deadline (exit code 3, as for a timeout). Its task, if it
 * runs as one, is cancelled first, through a handle of its own (the call's signal is aborted); the
 * message says what became of it, as the server reports.
 */
async function pastDeadline(
  { client, signal, timeout }: Session,
  name: string,
  ms: number,
  task: ToolTask | undefined,
): Promise<McpError> {
  clearStatus();
  const late = `"${name}" did not finish within ${duration(ms)} (--timeout)`;
  if (task === undefined || task.id === "") {
    return new McpError(ErrorCode.RequestTimeout, `${late}; mcpkit told the server to cancel the call`);
  }
  const id = peerText(task.id, "name");
  const reach = `mcpkit tasks get ${id} (with the same server) shows it`;
  try {
    const handle = await client.task(task.id, { signal, timeout });
    if (!ENDED.includes(handle.info.status)) {
      await handle.cancel();
      await handle.status();
    }
    const status = handle.info.status;
    const what =
      status === "cancelled"
        ? `its task ${id} was cancelled`
        : ENDED.includes(status)
          ? `its task ${id} ended meanwhile (${peerText(status, "name")}): ${reach}`
          : `mcpkit asked the server to cancel its task ${id}, which is still ${peerText(status, "name")}: ${reach}`;
    return new McpError(ErrorCode.RequestTimeout, `${late}: ${what}`, { taskId: task.id, status });
  } catch (error) {
    return new McpError(
      ErrorCode.RequestTimeout,
      `${late}: its task ${id} could not be cancelled (${describeError(error)}) and may still be running: ${reach}`,
      { taskId: task.id },
      { cause: error },
    );
  }
}

export function registerCallCommand(program: Command, context: CliContext): void {
  clientCommand<CallOptions>(program, context, {
    name: "call",
    operands: "<tool> [json]",
    count: { min: 1, max: 2 },
    summary: "Call a tool",
    description: "Call a tool and show its result",
    details: `Arguments come as one JSON object, as --arg key=value pairs, or both (--arg wins).
A --arg value is typed by the tool's input schema: for a string property it stays text
(--arg zip=007), for a number, boolean, array or object it is read as JSON (--arg n=3,
--arg tags='["a","b"]'); without a schema it is JSON when it parses, else text.
The arguments are checked against the schema before the call: a missing required
argument or a value of the wrong type exits with 2 (--no-validate sends them as they are).

The result's content is shown block by block as [type]; images and audio are summarised
(mime type, size). A tool that fails (isError) shows [error, …] blocks and exits with 1.
Progress is shown on stderr when it is a terminal (--progress: always, as lines).

A tool the server runs as a task is waited for until it ends; with --timeout, the whole call
is bounded: past it, mcpkit cancels the task (tasks/cancel) and exits with 3, naming the task.
--task prints the task instead of waiting: mcpkit tasks get ID shows it and, once completed,
its result; mcpkit tasks cancel ID cancels it.`,
    examples: [
      [
        "mcpkit call echo --arg message=hello -- npx -y @modelcontextprotocol/server-everything",
        "call echo with one argument",
      ],
      [
        `mcpkit call get-sum '{"a": 2, "b": 3}' -- npx -y @modelcontextprotocol/server-everything`,
        "arguments as JSON",
      ],
      [
        "mcpkit call test_tool_with_progress --json http://localhost:3000/mcp",
        "the raw result as JSON, from mcpkit serve everything --http --port 3000",
      ],
      [
        "mcpkit call slow_compute --arg seconds=30 --task http://localhost:3000/mcp",
        "start a task and print its id (mcpkit tasks get ID http://localhost:3000/mcp shows it)",
      ],
      [
        "mcpkit call read_file --arg path=README.md --config mcp.json filesystem",
        "a server from a config file",
      ],
    ],
    configure: (command) =>
      addMetaOption(
        command
          .option("-a, --arg <key=value>", "an argument (repeatable)", collect)
          .option(
            "--task",
            "start the tool as a task and print the task (its id) without waiting for it; mcpkit tasks get ID shows it later",
          )
          .option("--progress", "show progress even when stderr is not a terminal")
          .option("--no-progress", "do not show progress")
          .option(
            "--no-validate",
            "send the arguments without checking them against the tool's input schema",
          ),
      ),
    check: ([, json], options) => void toolArguments(undefined, json, options.arg),
    run: call,
  });
}
