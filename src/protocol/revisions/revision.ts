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

/**
 * How a revision carries tasks (tool calls the client polls): the core `tasks/*` methods of
 * 2025-11-25 in a session, or the tasks extension (SEP-2663) of the stateless revisions.
 */
export interface TaskRules {
  /**
   * Whether the client asks for a task (`task: { ttl }` on `tools/call`) and the server honours
   * its `ttl`; else the server decides, with its own `ttl`.
   */
  readonly requestedByClient: boolean;
  /** How `tools/call` answers with a created task: `{ task }`, or the task's fields flat beside `resultType: "task"`. */
  readonly createResult: "nested" | "flat";
  /** Where a finished task's result is read: from `tasks/result`, or inline in `tasks/get`. */
  readonly resultVia: "tasks/result" | "tasks/get";
  /** Whether `tasks/list` exists. */
  readonly listing: boolean;
  /** Whether a tool's own error (`isError`) ends its task `failed`; else `failed` is kept for protocol errors. */
  readonly toolErrorFails: boolean;
  /**
   * How a task's status changes reach the client: `notifications/tasks/status` in its session, or
   * the listen streams that asked for the task.
   */
  readonly statusVia: "notification" | "listen";
  /**
   * How a running task asks the client for input: requests related to the task, or input requests
   * `tasks/get` shows, answered with `tasks/update`.
   */
  readonly input: "requests" | "inputRequests";
}

/** What the HTTP headers of a revision's requests say, as rules a server checks. */
export interface HeaderRules {
  /**
   * Whether every request names its revision in `MCP-Protocol-Version`, equal to the one in its
   * `_meta`; else the header repeats the session's negotiated revision.
   */
  readonly versionPerRequest: boolean;
  /** Whether requests mirror their method, name and marked arguments in `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`. */
  readonly mirrored: boolean;
  /** Whether the server keeps sessions, named by `Mcp-Session-Id`. */
  readonly sessionId: boolean;
}

/**
 * What changes from one protocol revision to the next, as data. `V` is its version string, kept
 * literal in the revision modules so that `ProtocolVersion` is derived from the table.
 */
export interface Revision<V extends string = string> {
  /** The version string sent on the wire. */
  readonly version: V;
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
  /** How tasks travel; `undefined` where there are none. */
  readonly tasks: TaskRules | undefined;
  /** What the HTTP headers of a request say. */
  readonly headers: HeaderRules;
  /** Requests whose results carry caching hints (`ttlMs`, `cacheScope`). */
  readonly cacheable: ReadonlySet<string>;
  /**
   * Requests whose handlers may ask the client for input within the request (multi round-trip),
   * each with the param that names the subject of its questions.
   */
  readonly asking: Readonly<Record<string, string>>;
}

/** A revision written out in full, its version kept literal. */
export function defineRevision<V extends string>(revision: Revision<V>): Revision<V> {
  return revision;
}

/** Builds a revision from its predecessor and what it adds or removes. */
export function deriveRevision<V extends string>(
  base: Revision,
  changes: Partial<Omit<Revision<V>, "version" | "era">> & {
    version: V;
    era?: Era;
    add?: Partial<
      Record<
        "clientRequests" | "serverRequests" | "clientNotifications" | "serverNotifications" | "contentTypes",
        string[]
      >
    >;
  },
): Revision<V> {
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
