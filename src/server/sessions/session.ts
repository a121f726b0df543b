import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { JSONRPCRequest, RequestId } from "../../jsonrpc/messages.js";
import { Peer, type PeerOptions } from "../../protocol/engine/peer.js";
import { legacy } from "../../protocol/eras/legacy.js";
import { modern, speaksModern } from "../../protocol/eras/modern.js";
import { chooseServerVersion } from "../../protocol/eras/negotiate.js";
import { adaptDescription, type Revision, revisionOf } from "../../protocol/revisions/index.js";
import type { SharedSessionState, Transport } from "../../protocol/transport.js";
import type { Implementation } from "../../protocol/types/base.js";
import type { LoggingLevel } from "../../protocol/types/client-features.js";
import type {
  ClientCapabilities,
  InitializeResult,
  RequestMeta,
  ServerCapabilities,
} from "../../protocol/types/lifecycle.js";
import { isLoggingLevel, passes } from "./logging.js";

/** What a session needs from its server. */
export interface SessionHost {
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  readonly supportedVersions: readonly string[];
  capabilities(): ServerCapabilities;
  /** What a handshake session on `revision` is told it can do. */
  handshakeCapabilities(revision: Revision): ServerCapabilities;
  /** Whether an extension adds `method` (a request or notification) the revision table does not know. */
  extends(method: string): boolean;
  /** Installs the server's request handlers on a new session. */
  install(session: ServerSession): void;
  /** Forgets a session that ended. */
  release(session: ServerSession): void;
}

/** What a session keeps for the other replicas of its server: enough to serve any of its requests. */
interface SessionSnapshot {
  protocolVersion: string;
  clientInfo?: Implementation;
  clientCapabilities: ClientCapabilities;
  logLevel?: LoggingLevel;
  subscriptions: string[];
}

/**
 * One client connection of a server, in the handshake era: negotiates the revision in
 * `initialize` and refuses other requests until then.
 */
export class ServerSession {
  readonly peer: Peer;
  /** The negotiated revision, once `initialize` was answered. */
  revision: Revision | undefined;
  clientInfo: Implementation | undefined;
  clientCapabilities: ClientCapabilities = {};
  /** What the server declared in `initialize`. */
  capabilities: ServerCapabilities = {};
  /** The least severe log level the client wants; unset, every message is sent. */
  logLevel: LoggingLevel | undefined;
  /** URIs the client subscribed to. */
  readonly subscriptions = new Set<string>();
  /** Resolves when the client sent `notifications/initialized`. */
  readonly initialized: Promise<void>;
  private markInitialized!: () => void;
  /** Where the session's state is kept for the other replicas, when it is served by several. */
  private readonly shared: SharedSessionState | undefined;
  private readonly extended = (method: string) => this.host.extends(method);

  constructor(
    private readonly host: SessionHost,
    transport: Transport,
    options: Pick<PeerOptions, "requestTimeout" | "trace"> & { assumeVersion?: string },
  ) {
    this.peer = new Peer(transport, { ...options, guard: (request, meta) => this.admit(request, meta) });
    this.shared = transport.sharedSession;
    if (options.assumeVersion !== undefined) {
      // Sessionless HTTP: no handshake; the request's MCP-Protocol-Version header stands for it.
      this.revision =
        revisionOf(options.assumeVersion) ??
        revisionOf(chooseServerVersion(options.assumeVersion, host.supportedVersions));
      this.capabilities = host.capabilities();
    }
    this.initialized = new Promise((resolve) => {
      this.markInitialized = resolve;
    });
    this.peer.setNotificationHandler("notifications/initialized", () => this.markInitialized());
    this.peer.onClose(() => host.release(this));
    if (this.shared) {
      if (this.shared.restored) this.restore(this.shared.restored);
      this.shared.onchange = (state) => this.restore(state);
    }
    host.install(this);
  }

  /** Whether server-wide notifications reach this session from this process (see `SharedSessionState`). */
  get deliversBroadcasts(): boolean {
    return this.shared?.deliversBroadcasts ?? true;
  }

  /** Saves what the session negotiated and asked for, for the other replicas serving it. */
  saveShared(): void {
    if (!this.shared || !this.revision) return;
    const state: SessionSnapshot = {
      protocolVersion: this.revision.version,
      clientCapabilities: this.clientCapabilities,
      subscriptions: [...this.subscriptions],
    };
    if (this.clientInfo !== undefined) state.clientInfo = this.clientInfo;
    if (this.logLevel !== undefined) state.logLevel = this.logLevel;
    this.shared.save(state as unknown as Record<string, unknown>);
  }

  /** Takes the state another replica saved: the session continues here as it was there. */
  private restore(saved: Record<string, unknown>): void {
    const state = saved as Partial<SessionSnapshot>;
    const revision =
      typeof state.protocolVersion === "string" ? revisionOf(state.protocolVersion) : undefined;
    if (!revision) return;
    if (!this.revision) {
      this.revision = revision;
      this.peer.batches = revision.batches;
      this.capabilities = this.host.capabilities();
      this.markInitialized();
    }
    this.clientInfo = state.clientInfo;
    this.clientCapabilities = state.clientCapabilities ?? {};
    this.logLevel = isLoggingLevel(state.logLevel) ? state.logLevel : undefined;
    this.subscriptions.clear();
    for (const uri of state.subscriptions ?? []) if (typeof uri === "string") this.subscriptions.add(uri);
  }

  /** The negotiated protocol version. */
  get protocolVersion(): string | undefined {
    return this.revision?.version;
  }

  start(): Promise<void> {
    return this.peer.start();
  }

  close(): Promise<void> {
    return this.peer.close();
  }

  /** Sends a notification if the negotiated revision has it. */
  notify(method: string, params?: Record<string, unknown>, relatedRequestId?: RequestId): void {
    if (this.revision && !this.revision.serverNotifications.has(method) && !this.host.extends(method)) return;
    this.peer.notify(method, params, relatedRequestId);
  }

  /** Sends a `notifications/message` if it passes the client's level. */
  log(level: LoggingLevel, data: unknown, logger?: string, relatedRequestId?: RequestId): void {
    if (!passes(level, this.logLevel)) return;
    const params = logger === undefined ? { level, data } : { level, logger, data };
    this.notify("notifications/message", params, relatedRequestId);
  }

  /** Answers `logging/setLevel`. */
  setLevel(level: unknown): object {
    if (!isLoggingLevel(level)) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown logging level: ${JSON.stringify(level)}`);
    }
    this.logLevel = level;
    this.saveShared();
    return {};
  }

  /**
   * Lets a request through, or says why not. A request naming its version in `_meta` (or using a
   * method only the stateless era has) is served statelessly (2026-07-28) whatever the session did
   * before, and admitted with its sender's `_meta`; any other request follows the handshake rules.
   */
  private admit(request: JSONRPCRequest, known: RequestMeta | undefined): McpError | RequestMeta | undefined {
    const method = request.method;
    if (known === undefined && !speaksModern(method, request.params)) {
      return legacy.admit(method, this.revision?.version, this.host.supportedVersions);
    }
    let meta: RequestMeta;
    try {
      meta = known ?? modern.readMeta(request.params)!;
    } catch (error) {
      return error as McpError;
    }
    // An extension's method is answered (or refused) by its own row.
    return modern.admit(method, meta.protocolVersion, this.host.supportedVersions, this.extended) ?? meta;
  }

  /** Answers `initialize`: negotiates the revision and remembers the client. */
  initialize(params: Record<string, unknown>): InitializeResult {
    if (this.revision) throw new McpError(ErrorCode.InvalidRequest, "The session is already initialized");
    const negotiable = this.host.supportedVersions.filter((v) => legacy.versions.includes(v));
    const version = chooseServerVersion(params.protocolVersion, negotiable);
    this.revision = revisionOf(version);
    this.peer.batches = this.revision!.batches;
    this.clientInfo = params.clientInfo as Implementation | undefined;
    this.clientCapabilities = (params.capabilities as ClientCapabilities | undefined) ?? {};
    this.capabilities = this.host.handshakeCapabilities(this.revision!);
    // completion/complete is older than the capability that declares it.
    let declared = this.capabilities;
    if (!this.revision!.completionsCapability && declared.completions) {
      const { completions: _absent, ...rest } = declared;
      declared = rest;
    }
    const result: InitializeResult = {
      protocolVersion: version,
      capabilities: declared,
      serverInfo: adaptDescription(this.host.serverInfo, this.revision!),
    };
    if (this.host.instructions !== undefined) result.instructions = this.host.instructions;
    this.saveShared();
    return result;
  }
}
