/** Results that carry caching hints (2026-07-28), and the notifications that make them stale. */
const STALE_ON: Record<string, string[]> = {
  toolsListChanged: ["tools/list"],
  promptsListChanged: ["prompts/list"],
  resourcesListChanged: ["resources/list", "resources/templates/list"],
};

/**
 * The client's cache of list and read results, kept for the `ttlMs` the server gave (SEP-2549).
 * List-changed notifications drop the lists they concern; `resourceUpdated` drops that resource.
 */
export class ResultCache {
  private readonly entries = new Map<string, { expires: number; value: Record<string, unknown> }>();

  static key(method: string, params: Record<string, unknown> | undefined): string {
    const { _meta: _ignored, ...rest } = params ?? {};
    return `${method} ${JSON.stringify(rest)}`;
  }

  get(key: string): Record<string, unknown> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires > Date.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps a result if the server said for how long. */
  put(key: string, value: Record<string, unknown>): void {
    const ttl = value.ttlMs;
    if (typeof ttl === "number" && ttl > 0 && value.resultType !== "input_required") {
      this.entries.set(key, { expires: Date.now() + ttl, value });
    }
  }

  /** Drops what a server notification made stale. */
  invalidate(event: string, params?: { uri?: string }): void {
    if (event === "resourceUpdated" && params?.uri !== undefined) {
      this.entries.delete(ResultCache.key("resources/read", { uri: params.uri }));
      return;
    }
    const methods = STALE_ON[event];
    if (!methods) return;
    for (const key of this.entries.keys()) {
      if (methods.some((method) => key.startsWith(`${method} `))) this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
