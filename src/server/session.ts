import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { JSONRPCRequest, RequestId } from "../jsonrpc/messages.js";
import { Peer, type PeerOptions } from "../protocol/engine/peer.js";
import { chooseServerVersion } from "../protocol/eras/negotiate.js";
import {
  isModernRequest,
  type RequestMeta,
  readRequestMeta,
  unsupportedVersion,
} from "../protocol/eras/request-meta.js";
import { adaptDescription, type Revision, revisionOf } from "../protocol/revisions/index.js";
import type { Transport } from "../protocol/transport.js";
import type { Implementation } from "../protocol/types/base.js";
import type { LoggingLevel } from "../protocol/types/client-features.js";
import type {
  ClientCapabilities,
  InitializeResult,
  ServerCapabilities,
} from "../protocol/types/lifecycle.js";
import { isLoggingLevel, passes } from "./logging.js";

/** What a session needs from its server. */
export interface SessionHost {
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  readonly supportedVersions: readonly string[];
  capabilities(): ServerCapabilities;
  /** Installs the server's request handlers on a new session. */
  install(session: ServerSession): void;
  /** Forgets a session that ended. */
  release(session: ServerSession): void;
}

const BEFORE_INIT = new Set(["initialize", "ping"]);

/** Methods that exist only statelessly: they always need the request `_meta`. */
const MODERN_ONLY = new Set(["server/discover", "subscriptions/listen"]);

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

  constructor(
    private readonly host: SessionHost,
    transport: Transport,
    options: Pick<PeerOptions, "requestTimeout" | "trace"> & { assumeVersion?: string },
  ) {
    this.peer = new Peer(transport, { ...options, guard: (request) => this.admit(request) });
    if (options.assumeVersion !== undefined) {
      // Stateless HTTP: no handshake; the request's MCP-Protocol-Version header stands for it.
      this.revision =
        revisionOf(options.assumeVersion) ??
        revisionOf(chooseServerVersion(options.assumeVersion, host.supportedVersions));
      this.capabilities = host.capabilities();
    }
    this.initialized = new Promise((resolve) => {
      this.markInitialized = resolve;
    });
    this.peer.setRequestHandler("initialize", (params) => this.initialize(params));
    this.peer.setNotificationHandler("notifications/initialized", () => this.markInitialized());
    this.peer.setRequestHandler("logging/setLevel", (params) => this.setLevel(params.level));
    this.peer.onClose(() => host.release(this));
    host.install(this);
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
    if (this.revision && !this.revision.serverNotifications.has(method)) return;
    this.peer.notify(method, params, relatedRequestId);
  }

  /** Sends a `notifications/message` if it passes the client's level. */
  log(level: LoggingLevel, data: unknown, logger?: string, relatedRequestId?: RequestId): void {
    if (!passes(level, this.logLevel)) return;
    const params = logger === undefined ? { level, data } : { level, logger, data };
    this.notify("notifications/message", params, relatedRequestId);
  }

  private setLevel(level: unknown): object {
    if (!isLoggingLevel(level)) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown logging level: ${JSON.stringify(level)}`);
    }
    this.logLevel = level;
    return {};
  }

  /**
   * Lets a request through, or says why not. A request naming its version in `_meta` is served
   * statelessly (2026-07-28) whatever the session did before; any other request follows the
   * handshake rules.
   */
  private admit(request: JSONRPCRequest): McpError | undefined {
    const method = request.method;
    if (isModernRequest(request.params) || MODERN_ONLY.has(method)) {
      let meta: RequestMeta;
      try {
        meta = readRequestMeta(request.params);
      } catch (error) {
        return error as McpError;
      }
      const revision = revisionOf(meta.protocolVersion);
      if (revision?.era !== "modern" || !this.host.supportedVersions.includes(meta.protocolVersion)) {
        return unsupportedVersion(meta.protocolVersion, this.host.supportedVersions);
      }
      if (!revision.clientRequests.has(method)) {
        return new McpError(
          ErrorCode.MethodNotFound,
          `Method not found: ${method} (not in protocol ${meta.protocolVersion})`,
        );
      }
      return undefined;
    }
    if (this.revision || BEFORE_INIT.has(method)) return undefined;
    return new McpError(ErrorCode.InvalidRequest, `Server not initialized: send initialize before ${method}`);
  }

  private initialize(params: Record<string, unknown>): InitializeResult {
    if (this.revision) throw new McpError(ErrorCode.InvalidRequest, "The session is already initialized");
    const legacy = this.host.supportedVersions.filter((v) => revisionOf(v)?.era === "legacy");
    const version = chooseServerVersion(params.protocolVersion, legacy);
    this.revision = revisionOf(version);
    this.clientInfo = params.clientInfo as Implementation | undefined;
    this.clientCapabilities = (params.capabilities as ClientCapabilities | undefined) ?? {};
    this.capabilities = this.host.capabilities();
    // The completions capability arrived with 2025-03-26; completion/complete itself is older.
    let declared = this.capabilities;
    if (version === "2024-11-05" && declared.completions) {
      const { completions: _absent, ...rest } = declared;
      declared = rest;
    }
    const result: InitializeResult = {
      protocolVersion: version,
      capabilities: declared,
      serverInfo: adaptDescription(this.host.serverInfo, this.revision!),
    };
    if (this.host.instructions !== undefined) result.instructions = this.host.instructions;
    return result;
  }
}
