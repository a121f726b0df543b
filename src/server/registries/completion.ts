import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { CompleteReference, CompleteResult } from "../../protocol/types/completion.js";

/** The most values one `completion/complete` result may carry. */
const MAX_COMPLETION_VALUES = 100;

/** What a completer may return: the values, or the values with `total`/`hasMore`. */
export type CompletionReturn = string[] | { values: string[]; total?: number; hasMore?: boolean };

/**
 * Completes one prompt argument or template variable from what the user typed so far and the
 * arguments already filled in.
 */
export type Completer = (
  value: string,
  context: { arguments: Record<string, string> },
) => CompletionReturn | Promise<CompletionReturn>;

/** Runs a completer and shapes its answer, cutting it to the spec's 100 values. */
export async function complete(
  completer: Completer | undefined,
  value: string,
  context: Record<string, string>,
): Promise<CompleteResult> {
  if (!completer) return { completion: { values: [] } };
  const returned = await completer(value, { arguments: context });
  const given = Array.isArray(returned) ? { values: returned } : returned;
  const values = given.values.slice(0, MAX_COMPLETION_VALUES);
  const completion: CompleteResult["completion"] = { values };
  const total = given.total ?? (given.values.length > values.length ? given.values.length : undefined);
  if (total !== undefined) completion.total = total;
  const hasMore = given.hasMore ?? (given.values.length > values.length ? true : undefined);
  if (hasMore !== undefined) completion.hasMore = hasMore;
  return { completion };
}

/** Where `completion/complete` finds its completers: the prompts, and the resource templates. */
interface CompletionSources {
  prompts: {
    completeArgument(
      name: unknown,
      argument: string,
      value: string,
      context: Record<string, string>,
    ): Promise<CompleteResult>;
  };
  resources: {
    completeVariable(
      uriTemplate: string,
      name: string,
      value: string,
      context: Record<string, string>,
    ): Promise<CompleteResult> | undefined;
  };
}

/** Answers `completion/complete`: checks the request, then asks the prompt or the template. */
export async function completeRequest(
  params: Record<string, unknown>,
  { prompts, resources }: CompletionSources,
): Promise<CompleteResult> {
  const ref = params.ref as CompleteReference | undefined;
  const argument = params.argument as { name?: unknown; value?: unknown } | undefined;
  if (typeof argument?.name !== "string" || typeof argument.value !== "string") {
    throw new McpError(
      ErrorCode.InvalidParams,
      'completion/complete needs "argument" with string "name" and "value"',
    );
  }
  const context = (params.context as { arguments?: Record<string, string> } | undefined)?.arguments ?? {};
  if (ref?.type === "ref/prompt")
    return prompts.completeArgument(ref.name, argument.name, argument.value, context);
  if (ref?.type === "ref/resource") {
    const result = resources.completeVariable(ref.uri, argument.name, argument.value, context);
    if (result) return result;
    throw new McpError(ErrorCode.InvalidParams, `Unknown resource template: ${ref.uri}`, { uri: ref.uri });
  }
  const type = (ref as { type?: unknown } | undefined)?.type;
  throw new McpError(ErrorCode.InvalidParams, `Unknown completion reference type: ${JSON.stringify(type)}`);
}
