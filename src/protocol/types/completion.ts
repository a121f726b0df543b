/** What `completion/complete` completes: a prompt's argument or a resource template's variable. */
export type CompleteReference = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

export interface CompleteRequestParams {
  ref: CompleteReference;
  argument: { name: string; value: string };
  /** Arguments already filled in (2025-06-18 and later). */
  context?: { arguments?: Record<string, string> };
}

export interface CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
  _meta?: Record<string, unknown>;
}
