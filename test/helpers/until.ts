/** What {@link until} waits for, and how long at most. */
export interface UntilOptions {
  /** What is awaited, for the error: "the server to log the request". */
  what: string;
  /** The bound, generous: a loaded machine is slow, and how long it took is never the subject. */
  timeoutMs?: number;
  /** How often the condition is checked. */
  intervalMs?: number;
}

/**
 * Checks `condition` until it returns a truthy value, and returns that value; throws, naming
 * `what`, once `timeoutMs` pass without it. For state with no event to await (a log, a count on
 * another process, a row in Redis); where there is an event, await it instead. Runs on the real
 * clock: not for use under fake timers.
 */
export async function until<T>(
  condition: () => T | Promise<T>,
  { what, timeoutMs = 20_000, intervalMs = 10 }: UntilOptions,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() >= deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
