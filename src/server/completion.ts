import type { CompleteResult } from "../protocol/types/completion.js";

/** The most values one `completion/complete` result may carry. */
export const MAX_COMPLETION_VALUES = 100;

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
