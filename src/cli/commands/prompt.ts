/** `prompt <name> [json] [--arg k=v …]`: get a prompt's messages. */
import type { Command } from "commander";
import type { Prompt } from "../../protocol/types/prompts.js";
import { addMetaOption, type CliContext, clientCommand, print, printResult } from "../shared/command.js";
import { renderBlock } from "../shared/content.js";
import { Exit, UsageError } from "../shared/errors.js";
import { collect, parseJsonObject, splitPair } from "../shared/options.js";
import { peerText } from "../shared/peer-text.js";
import type { Session } from "../shared/session.js";
import { didYouMean } from "../shared/suggest.js";

interface PromptOptions {
  arg?: string[];
  meta?: boolean;
}

/** Prompt arguments are strings: JSON values that are not become their JSON text. */
function promptArguments(json: string | undefined, pairs: string[] = []): Record<string, string> {
  const given = json === undefined ? {} : parseJsonObject(json, "the arguments");
  const args = Object.fromEntries(
    Object.entries(given).map(([key, value]) => [
      key,
      typeof value === "string" ? value : JSON.stringify(value),
    ]),
  );
  for (const pair of pairs) {
    const [key, value] = splitPair(pair, "--arg");
    args[key] = value;
  }
  return args;
}

/** The prompt as listed, checked for its required arguments. */
function checkPrompt(prompts: Prompt[], name: string, args: Record<string, string>): void {
  const prompt = prompts.find((p) => p.name === name);
  if (!prompt) {
    const names = prompts.map((p) => p.name);
    const known = names.map((n) => peerText(n, "name")).join(", ") || "none";
    throw new UsageError(`no prompt "${name}" on this server${didYouMean(name, names)} (it has: ${known})`);
  }
  const missing = (prompt.arguments ?? []).filter((a) => a.required && args[a.name] === undefined);
  if (missing.length > 0) {
    const list = missing
      .map(
        (a) => peerText(a.name, "name") + (a.description ? ` (${peerText(a.description, "message")})` : ""),
      )
      .join(", ");
    throw new UsageError(`prompt "${name}" needs --arg for: ${list}`);
  }
}

async function prompt(session: Session, operands: string[], options: PromptOptions & Session["options"]) {
  const { client, signal, timeout } = session;
  const [name, json] = operands as [string, string | undefined];
  if (!client.capabilities.prompts) throw new UsageError("the server does not offer prompts");
  const args = promptArguments(json, options.arg);
  checkPrompt(await client.listPrompts({ signal }), name, args);
  const result = await client.getPrompt(name, args, { signal, timeout });
  if (options.json) {
    printResult(result, options.meta);
    return Exit.Ok;
  }
  const full = options.full === true;
  const parts = result.description ? [peerText(result.description, "text")] : [];
  for (const message of result.messages ?? []) parts.push(renderBlock(message.content, full, message.role));
  print(parts.length > 0 ? parts.join("\n\n") : "(no messages)");
  return Exit.Ok;
}

export function registerPromptCommand(program: Command, context: CliContext): void {
  clientCommand<PromptOptions>(program, context, {
    name: "prompt",
    operands: "<name> [json]",
    count: { min: 1, max: 2 },
    summary: "Get a prompt",
    description: "Get a prompt's messages",
    details: `Arguments come as one JSON object, as --arg key=value pairs, or both (--arg wins);
prompt arguments are always text. Each message is shown as [role, type] and its content.
A missing required argument exits with 2 and names it. List prompts with \`mcpkit prompts\`.`,
    examples: [
      [
        "mcpkit prompt args-prompt --arg city=Paris -- npx -y @modelcontextprotocol/server-everything",
        "a prompt with an argument",
      ],
      ["mcpkit prompt test_simple_prompt --json http://localhost:3000/mcp", "the messages as JSON"],
    ],
    configure: (command) =>
      addMetaOption(command.option("-a, --arg <key=value>", "an argument (repeatable)", collect)),
    check: ([, json], options) => void promptArguments(json, options.arg),
    run: prompt,
  });
}
