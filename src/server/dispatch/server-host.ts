import type { JSONRPCMessage } from "../../jsonrpc/messages.js";
import type { CacheHint } from "../../protocol/eras/era.js";
import type { Revision } from "../../protocol/revisions/index.js";
import type { Implementation } from "../../protocol/types/base.js";
import type { ServerCapabilities } from "../../protocol/types/lifecycle.js";
import type { MethodSelector } from "../../util/middleware.js";
import type { Scopes } from "../auth/scopes.js";
import type { Registries } from "../registries/registries.js";
import { RequestStateSigner } from "../sessions/request-state.js";
import type { ServerSession, SessionHost } from "../sessions/session.js";
import type { Sessions } from "../sessions/sessions.js";
import { type AskedCapabilities, DeclaredCapabilities } from "./capabilities.js";
import { coreRows } from "./core-rows.js";
import type { DispatchRow } from "./dispatch.js";
import type { ServerExtension } from "./extension.js";
import { EXTENSION_PLACE, ServerExtensions } from "./extensions.js";
import type { ServerMiddleware } from "./middleware.js";
import { SessionDispatch } from "./session-dispatch.js";
import { StatelessServing } from "./stateless.js";

/** Who a server is, as its sessions tell clients. */
interface ServerIdentity {
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  readonly supportedVersions: readonly string[];
}

/** What of a server's options its dispatch is built from (see `ServerOptions`). */
interface DispatchOptions {
  extensions?: readonly ServerExtension[];
  capabilities?: AskedCapabilities;
  hideUnauthorized?: boolean;
  cache?: Partial<CacheHint>;
  requestStateSecret?: string | Uint8Array;
  requestStateTtl?: number;
}

/**
 * What a server's sessions are served by: one dispatch table (the core rows and the extensions'),
 * the middlewares around it, the capabilities it declares, and the stateless era's serving.
 */
export class ServerHost implements SessionHost {
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  readonly supportedVersions: readonly string[];
  private readonly extensions: ServerExtensions;
  private readonly declared: DeclaredCapabilities;
  private readonly rows: ReadonlyMap<string, DispatchRow>;
  /** The dispatch table, with the middlewares, as sessions answer from it. */
  private readonly dispatch: SessionDispatch;
  private signer: RequestStateSigner;

  constructor(
    identity: ServerIdentity,
    private readonly options: DispatchOptions,
    registries: Registries,
    private readonly sessions: Sessions,
  ) {
    this.serverInfo = identity.serverInfo;
    this.instructions = identity.instructions;
    this.supportedVersions = identity.supportedVersions;
    const { tools, resources, prompts } = registries;
    const subscriptions = sessions.subscriptions;
    this.extensions = new ServerExtensions(options.extensions ?? [], {
      tool: (name) => tools.describe(name),
      listenToTasks: (extension) => subscriptions.listenToTasks(extension),
    });
    this.declared = new DeclaredCapabilities(options.capabilities ?? {}, registries, this.extensions);
    const hideUnauthorized = options.hideUnauthorized === true;
    const table = this.extensions.extend(
      coreRows({
        tools,
        resources,
        prompts,
        subscriptions,
        supportedVersions: this.supportedVersions,
        instructions: this.instructions,
        hideUnauthorized,
        capabilities: () => this.capabilities(),
      }),
    );
    this.rows = new Map(table.map((entry) => [entry.method, entry]));
    this.signer = new RequestStateSigner(options.requestStateSecret, options.requestStateTtl);
    // Replaced by the replicas' shared secret when serving as one of several.
    const signerOf = () => this.signer;
    const stateless = new StatelessServing({
      serverInfo: this.serverInfo,
      cache: options.cache,
      hideUnauthorized,
      get signer() {
        return signerOf();
      },
      resources,
      capabilities: () => this.capabilities(),
    });
    this.dispatch = new SessionDispatch(table, stateless);
    for (const [method, middleware] of this.extensions.middleware())
      this.dispatch.use(method, middleware, [], EXTENSION_PLACE);
  }

  capabilities(): ServerCapabilities {
    return this.declared.current();
  }

  handshakeCapabilities(revision: Revision): ServerCapabilities {
    return this.declared.forHandshake(revision);
  }

  /** Forgets the capabilities computed: something was registered or removed. */
  registryChanged(): void {
    this.declared.changed();
  }

  extends(method: string): boolean {
    return this.extensions.adds(method);
  }

  install(session: ServerSession): void {
    this.sessions.add(session);
    this.dispatch.install(session);
  }

  release(session: ServerSession): void {
    this.sessions.delete(session);
  }

  /** Adds a middleware around the methods `methods` names, on every session, open or to come. */
  use(methods: MethodSelector | undefined, middleware: ServerMiddleware): void {
    this.dispatch.use(methods, middleware, this.sessions);
  }

  /**
   * The scopes a message needs of its sender: those of the tool it calls, the resource it reads,
   * the prompt it gets. The HTTP endpoint checks them before the server sees the message.
   */
  requiredScopes(message: JSONRPCMessage): { scopes: Scopes; what: string } | undefined {
    if (!("method" in message) || !("id" in message)) return undefined;
    return this.rows.get(message.method)?.scopes?.(message.params ?? {});
  }

  /** Signs multi round-trip state with the key every replica shares, in place of this process's own. */
  shareRequestStateSecret(secret: string | Uint8Array): void {
    this.signer = new RequestStateSigner(secret, this.options.requestStateTtl);
  }

  /** Ends what the extensions run of their own. */
  close(): Promise<void> {
    return this.extensions.close();
  }
}
