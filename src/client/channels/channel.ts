import type { RequestOptions } from "../../protocol/engine/outgoing.js";
import type { Era, Revision } from "../../protocol/revisions/revision.js";
import type { LoggingLevel } from "../../protocol/types/client-features.js";
import type { InitializeResult } from "../../protocol/types/lifecycle.js";
import type { Tool } from "../../protocol/types/tools.js";

/** Answers one server request (handshake era) or input request (2026-07-28) with the client's features. */
export type FeatureAnswerer = (
  method: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<object>;

/**
 * Whether the server may send the client requests: only in a handshake session. Statelessly
 * (2026-07-28) the server asks only through `inputRequests` in a result; a request it sends is
 * answered as an unknown method, and nothing of the client is revealed.
 */
export interface ServerRequestGate {
  open: boolean;
}

/** Lists whose changes a client can be told of. */
export type ListKind = "tools" | "prompts" | "resources";

/**
 * How a client speaks to its server in one era, chosen once at connect: a handshake session
 * (`LegacyChannel`) or stateless requests carrying the client in `_meta` (`ModernChannel`).
 * `McpClient` is the same over both.
 */
export interface Channel {
  readonly era: Era;
  /** The revision spoken: what differs between revisions (tasks, headers…) is asked of it. */
  readonly revision: Revision;
  /** What the server said of itself: in `initialize`, or in `server/discover`. */
  readonly server: InitializeResult;
  /** A request whose result goes through `map` in the step that takes the answer. */
  send<T, R>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: RequestOptions | undefined,
    map: (result: T) => R,
  ): Promise<R>;
  /** The cheapest round trip the era has. */
  ping(options?: RequestOptions): Promise<void>;
  /** The params of a `tools/call`. */
  toolCallParams(name: string, args: Record<string, unknown>): Record<string, unknown>;
  subscribe(uri: string, options?: RequestOptions): Promise<void>;
  unsubscribe(uri: string, options?: RequestOptions): Promise<void>;
  setLogLevel(level: LoggingLevel, options?: RequestOptions): Promise<void>;
  /** Tells the server the roots changed, where the era has such a notification. */
  announceRoots(): void;
  /** Makes sure changes of `kind` are announced to this client. */
  listen(kind: ListKind): void;
  /** Hears of a task's status changes where the era pushes them, until the returned function is called. */
  watchTask?(taskId: string, listener: (task: Record<string, unknown>) => void): () => void;
  /** The tools of a listing this client can call; `warn` says why one was left out. */
  usableTools(tools: Tool[], warn: (message: string) => void): Tool[];
  /** Ends what the channel keeps open of its own. */
  close(): void;
}
