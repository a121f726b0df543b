/** Mirroring one upstream's prompts, each `prompts/get` and argument completion forwarded to it. */
import type { McpClient } from "../client/client.js";
import type { CompleteReference } from "../protocol/types/completion.js";
import type { Prompt } from "../protocol/types/prompts.js";
import type { PromptArgumentSpec } from "../server/registries/prompts.js";
import { asCaller } from "./caller.js";
import { describeError, forwardCompletion, listOrNone } from "./forward.js";
import { apply, isCurrent, type Registered, type SyncContext } from "./mirror-sync.js";

/**
 * Registers the prompts `client` lists now under the names `Upstreams.promptNames` gives them,
 * removing the ones gone or changed. Arguments complete upstream when the upstream offers completions.
 */
export async function syncPrompts(
  mirror: SyncContext,
  registered: Map<string, Registered>,
  server: string,
  client: McpClient,
): Promise<void> {
  if (!isCurrent(mirror, server, client)) return;
  let prompts: Prompt[] = [];
  if (client.capabilities.prompts) {
    try {
      prompts = await listOrNone(() => client.listPrompts());
    } catch (error) {
      mirror.warn(`${mirror.upstreams.label(server)}: could not list prompts: ${describeError(error)}`);
      return;
    }
    if (!isCurrent(mirror, server, client)) return;
  }
  const completes = client.capabilities.completions !== undefined;
  const names = mirror.upstreams.promptNames(server, prompts);
  // The server's live client when each request is forwarded: a reconnect replaces it.
  const upstream = () => mirror.upstreams.multi.client(server);
  apply(
    mirror,
    server,
    registered,
    new Map(prompts.map((prompt, i) => [names[i]!, prompt])),
    (prompt) => JSON.stringify({ prompt, completes }),
    (name, prompt) => {
      const ref: CompleteReference = { type: "ref/prompt", name: prompt.name };
      const specs: Record<string, PromptArgumentSpec> = {};
      for (const argument of prompt.arguments ?? []) {
        const spec: PromptArgumentSpec = {};
        if (argument.title !== undefined) spec.title = argument.title;
        if (argument.description !== undefined) spec.description = argument.description;
        if (argument.required) spec.required = true;
        if (completes) spec.complete = forwardCompletion(upstream, ref, argument.name);
        specs[argument.name] = spec;
      }
      mirror.target.prompt(
        name,
        {
          title: prompt.title,
          description: prompt.description,
          arguments: prompt.arguments?.length ? specs : undefined,
          icons: prompt.icons,
          _meta: prompt._meta,
        },
        (args, ctx) => {
          const strings: Record<string, string> = {};
          for (const [key, value] of Object.entries(args)) if (value !== undefined) strings[key] = value;
          return asCaller(ctx, () => upstream().getPrompt(prompt.name, strings, { signal: ctx.signal }));
        },
      );
    },
    (name) => mirror.target.removePrompt(name),
    "prompt",
  );
}
