/** How a lost server is reconnected: exponential backoff, then `failed`. */
export interface ReconnectPolicy {
  /** Wait before the second attempt, in ms (the first is at once); default 500. */
  initialDelay?: number;
  /** Each wait is this many times the one before; default 2. */
  factor?: number;
  /** The longest wait, in ms; default 30 000. */
  maxDelay?: number;
  /** Attempts before the server is `failed`; default 8. A call to a failed server tries once more. */
  maxAttempts?: number;
}

export const DEFAULT_RECONNECT: Required<ReconnectPolicy> = {
  initialDelay: 500,
  factor: 2,
  maxDelay: 30_000,
  maxAttempts: 8,
};

/** The wait after failed attempt `n` (1-based): `initialDelay * factor^(n-1)`, at most `maxDelay`. */
export function retryDelays(policy: ReconnectPolicy): (attempt: number) => number {
  const { initialDelay, factor, maxDelay } = { ...DEFAULT_RECONNECT, ...policy };
  return (attempt) => Math.min(maxDelay, initialDelay * factor ** (attempt - 1));
}
