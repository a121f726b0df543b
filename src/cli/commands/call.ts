/** `call <tool> [json] [--arg k=v …]`: call a tool and show its result. */
import type { Command } from "commander";
import type { McpClient } from "../../client/client.js";
import type { ToolTask } from "../../client/task.js";
import type { ToolResult } from "../../client/tool-result.js";
import type { Tool } from "../../protocol/types/tools.js";
import { addMetaOption, type CliContext, clientCommand, print, printResult } from "../shared/command.js";
import { renderBlock, renderJson } from "../shared/content.js";
import { Exit, UsageError } from "../shared/errors.js";
import { collect, parseJsonObject, splitPair } from "../shared/options.js";
import { peerText } from "../shared/peer-text.js";
import { checkArguments, propertiesOf, typedValue } from "../shared/schema.js";
import type { Session } from "../shared/session.js";
import { clearStatus, note, progressReporter, setStatus } from "../shared/status.js";
import { didYouMean } from "../shared/suggest.js";

interface CallOptions {
  arg?: string[];
  validate?: boolean;
  progress?: boolean;
  meta?: boolean;
}

/** The tool as listed, or a usage error naming the tools there are. */
export async function findTool(
  client: McpClient,
  name: string,
  signal: AbortSignal,
): Promise<Tool | undefined> {
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
  const { client, signal, timeout } = session;
  const [name, json] = operands as [string, string | undefined];
  const tool = await findTool(client, name, signal);
  const args = toolArguments(tool, json, options.arg);
  if (tool && options.validate !== false) await checkArguments(tool, args);
  const mode = progressMode(options);
  const requestOptions = {
    signal,
    timeout,
    resetTimeoutOnProgress: true,
    onProgress: progressReporter(name, mode),
  };
  // On a terminal a task's status is shown live; elsewhere the call just waits for its result.
  const result =
    mode === "status"
      ? await followTask(await client.callTool(name, args, { ...requestOptions, task: true }), name)
      : await client.callTool(name, args, requestOptions);
  clearStatus();
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

/** Shows a task's status on the status line until it ends, then gives its result. */
async function followTask(task: ToolTask, name: string): Promise<ToolResult> {
  if (task.id === "") return task.result();
  for await (const info of task) {
    const message = info.statusMessage ? `  ${peerText(info.statusMessage, "message")}` : "";
    setStatus(`${name}: task ${peerText(task.id, "name")} ${peerText(info.status, "name")}${message}`);
  }
  return task.result();
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
Progress is shown on stderr when it is a terminal (--progress: always, as lines).`,
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
        "mcpkit call read_file --arg path=README.md --config mcp.json filesystem",
        "a server from a config file",
      ],
    ],
    configure: (command) =>
      addMetaOption(
        command
          .option("-a, --arg <key=value>", "an argument (repeatable)", collect)
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
