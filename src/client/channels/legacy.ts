import type { RequestOptions } from "../../protocol/engine/outgoing.js";
import type { Peer } from "../../protocol/engine/peer.js";
import { type ClientHandshakeOptions, clientHandshake } from "../../protocol/eras/handshake.js";
import { type Revision, revisionOf } from "../../protocol/revisions/index.js";
import type { Transport } from "../../protocol/transport.js";
import type { LoggingLevel } from "../../protocol/types/client-features.js";
import type { InitializeResult } from "../../protocol/types/lifecycle.js";
import type { Tool } from "../../protocol/types/tools.js";
import { isSessionExpired } from "../../transports/http/shared/client-errors.js";
import type { Channel } from "./channel.js";

/** A handshake session: requests as they are; a session the server forgot is started again once. */
export class LegacyChannel implements Channel {
  readonly era = "legacy";
  private reinitializing: Promise<void> | undefined;

  constructor(
    private readonly peer: Peer,
    private readonly transport: Transport,
    private readonly handshake: ClientHandshakeOptions,
    public server: InitializeResult,
  ) {}

  /** The revision negotiated (again, after the server forgot the session). */
  get revision(): Revision {
    // The handshake accepted only versions the client speaks.
    return revisionOf(this.server.protocolVersion)!;
  }

  send<T, R>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: RequestOptions | undefined,
    map: (result: T) => R,
  ): Promise<R> {
    return this.peer.requestThen<T, R>(method, params, options, {
      map,
      recover: async (error) => {
        const { transport } = this;
        if (!isSessionExpired(error) || !transport.resetSession) throw error;
        // The server forgot the session (restart, expiry): start a new one once, then retry.
        await this.reinitialize(transport as Transport & { resetSession(): void });
        return map(await this.peer.request<T>(method, params, options));
      },
    });
  }

  /** A new handshake on the same transport; concurrent callers share it. */
  private reinitialize(transport: { resetSession(): void }): Promise<void> {
    this.reinitializing ??= (async () => {
      transport.resetSession();
      this.server = await clientHandshake(this.peer, this.handshake);
    })().finally(() => {
      this.reinitializing = undefined;
    });
    return this.reinitializing;
  }

  async ping(options?: RequestOptions): Promise<void> {
    await this.send("ping", undefined, options, same);
  }

  toolCallParams(name: string, args: Record<string, unknown>): Record<string, unknown> {
    return { name, arguments: args };
  }

  async subscribe(uri: string, options?: RequestOptions): Promise<void> {
    await this.send("resources/subscribe", { uri }, options, same);
  }

  async unsubscribe(uri: string, options?: RequestOptions): Promise<void> {
    await this.send("resources/unsubscribe", { uri }, options, same);
  }

  async setLogLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
    await this.send("logging/setLevel", { level }, options, same);
  }

  announceRoots(): void {
    this.peer.notify("notifications/roots/list_changed");
  }

  /** A session hears of every change the server declared it would announce. */
  listen(): void {}

  usableTools(tools: Tool[]): Tool[] {
    return tools;
  }

  close(): void {}
}

const same = <T>(value: T): T => value;
