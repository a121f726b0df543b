/** `complete <prompt|template> <ref> <argument> [value]`: ask the server for completions. */
import type { Command } from "commander";
import type { CompleteReference } from "../../protocol/types/completion.js";
import { type CliContext, clientCommand, print, printJson } from "../shared/command.js";
import { Exit, UsageError } from "../shared/errors.js";
import { collect, splitPair } from "../shared/options.js";
import { peerText } from "../shared/peer-text.js";
import type { Session } from "../shared/session.js";
import { note } from "../shared/status.js";

interface CompleteOptions {
  context?: string[];
}

const KINDS: Record<string, CompleteReference["type"]> = {
  prompt: "ref/prompt",
  "ref/prompt": "ref/prompt",
  template: "ref/resource",
  resource: "ref/resource",
  "resource-template": "ref/resource",
  "ref/resource": "ref/resource",
};

/** The reference completed: a prompt by name or a resource template by its URI template. */
export function referenceOf(kind: string, ref: string): CompleteReference {
  const type = KINDS[kind.toLowerCase()];
  if (type === undefined) throw new UsageError(`complete: the kind is "prompt" or "template", not "${kind}"`);
  return type === "ref/prompt" ? { type, name: ref } : { type, uri: ref };
}

async function complete(session: Session, operands: string[], options: CompleteOptions & Session["options"]) {
  const { client, signal, timeout } = session;
  const [kind, ref, argument, value = ""] = operands as [string, string, string, string | undefined];
  const reference = referenceOf(kind, ref);
  if (!client.capabilities.completions) throw new UsageError("the server does not offer completions");
  const pairs = options.context ?? [];
  const context =
    pairs.length > 0 ? Object.fromEntries(pairs.map((p) => splitPair(p, "--context"))) : undefined;
  const completion = await client.complete(reference, { name: argument, value }, context, {
    signal,
    timeout,
  });
  if (options.json) {
    printJson({ completion });
    return Exit.Ok;
  }
  // One value per line: a value's own line feeds are shown as \n.
  if (completion.values.length > 0) print(completion.values.map((v) => peerText(v, "message")).join("\n"));
  else note("mcpkit: no completions");
  const shown = completion.values.length;
  if (completion.hasMore || (completion.total !== undefined && completion.total > shown)) {
    note(`mcpkit: ${shown} of ${peerText(completion.total ?? "more", "name")} values shown`);
  }
  return Exit.Ok;
}

export function registerCompleteCommand(program: Command, context: CliContext): void {
  clientCommand<CompleteOptions>(program, context, {
    name: "complete",
    operands: "<kind> <ref> <argument> [value]",
    count: { min: 3, max: 4 },
    summary: "Complete a prompt or template argument",
    description: "Ask the server to complete an argument of a prompt or a variable of a resource template",
    details: `<kind>      prompt, or template (a resource template; also: resource)
<ref>       the prompt's name, or the URI template (see mcpkit resources)
<argument>  the prompt argument or template variable to complete
[value]     what is typed so far (default: empty, which asks for every value)

Values are printed one per line (a note on stderr says when there are more); --json prints { completion: { values, total, hasMore } }.`,
    examples: [
      [
        "mcpkit complete prompt completable-prompt department E -- npx -y @modelcontextprotocol/server-everything",
        "values of a prompt argument that start with E",
      ],
      [
        "mcpkit complete prompt completable-prompt name --context department=Engineering -- npx -y @modelcontextprotocol/server-everything",
        "with an argument already chosen",
      ],
      [
        "mcpkit complete template 'test://template/{id}/data' id '' http://localhost:3000/mcp",
        "values of a template variable",
      ],
    ],
    configure: (command) =>
      command.option("--context <key=value>", "an argument already chosen (repeatable)", collect),
    check: ([kind, ref], options) => {
      referenceOf(kind!, ref!);
      for (const pair of options.context ?? []) splitPair(pair, "--context");
    },
    run: complete,
  });
}
