/** A protocol version mcpkit speaks. */
export type ProtocolVersion = "2026-07-28" | "2025-11-25" | "2025-06-18" | "2025-03-26" | "2024-11-05";

/** The two eras of MCP: `legacy` has the `initialize` handshake and sessions; `modern` is stateless. */
export type Era = "legacy" | "modern";

/** What an elicitation's `requestedSchema` may use in a revision. */
export interface ElicitationRules {
  /** Titled enums (`oneOf` of `{ const, title }`). */
  readonly titledEnums: boolean;
  /** Multi-select enums (`type: "array"`). */
  readonly multiSelect: boolean;
  /** Which properties may carry a `default`. */
  readonly defaults: "booleans" | "all";
  /** URL-mode elicitation. */
  readonly urlMode: boolean;
}

/** What changes from one protocol revision to the next, as data. */
export interface Revision {
  /** The version string sent on the wire. */
  readonly version: ProtocolVersion;
  readonly era: Era;
  /** Requests a client may send. */
  readonly clientRequests: ReadonlySet<string>;
  /** Requests a server may send. */
  readonly serverRequests: ReadonlySet<string>;
  /** Notifications a client may send. */
  readonly clientNotifications: ReadonlySet<string>;
  /** Notifications a server may send. */
  readonly serverNotifications: ReadonlySet<string>;
  /** Content block types tool results and prompt messages may carry. */
  readonly contentTypes: ReadonlySet<string>;
  /** Whether tools may declare `outputSchema` and return `structuredContent`. */
  readonly structuredToolOutput: boolean;
  /**
   * Whether that output may be any JSON value, described by any JSON Schema; before 2026-07-28 it
   * is an object (`type: "object"` at the root).
   */
  readonly anyStructuredOutput: boolean;
  /** Whether tools may carry `annotations`. */
  readonly toolAnnotations: boolean;
  /** Whether progress notifications may carry a `message`. */
  readonly progressMessage: boolean;
  /** Whether servers declare `completions` (completion/complete itself is older). */
  readonly completionsCapability: boolean;
  /** What elicitation may ask for; `undefined` where there is no elicitation. */
  readonly elicitation: ElicitationRules | undefined;
  /** Whether tools, resources, prompts and implementations may carry `title`. */
  readonly titles: boolean;
  /** Whether they may carry `icons`. */
  readonly icons: boolean;
  /** Whether JSON-RPC batches must be accepted (2025-03-26 alone: later revisions refuse them). */
  readonly batches: boolean;
}

/** Builds a revision from its predecessor and what it adds or removes. */
export function deriveRevision(
  base: Revision,
  changes: Partial<Omit<Revision, "version" | "era">> & {
    version: ProtocolVersion;
    era?: Era;
    add?: Partial<
      Record<
        "clientRequests" | "serverRequests" | "clientNotifications" | "serverNotifications" | "contentTypes",
        string[]
      >
    >;
  },
): Revision {
  const { add, ...rest } = changes;
  const grow = (key: keyof NonNullable<typeof add>): ReadonlySet<string> =>
    new Set([...base[key], ...(add?.[key] ?? [])]);
  return {
    ...base,
    era: base.era,
    clientRequests: grow("clientRequests"),
    serverRequests: grow("serverRequests"),
    clientNotifications: grow("clientNotifications"),
    serverNotifications: grow("serverNotifications"),
    contentTypes: grow("contentTypes"),
    ...rest,
  };
}

/**
 * Whether a revision carries a tool's structured output (its `outputSchema`, its
 * `structuredContent`): before 2025-06-18 none; then objects only; from 2026-07-28 any JSON value.
 */
export function carriesStructuredOutput(revision: Revision, isObject: boolean): boolean {
  return revision.anyStructuredOutput || (revision.structuredToolOutput && isObject);
}
