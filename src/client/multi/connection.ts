import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { RequestOptions } from "../../protocol/engine/peer.js";
import type { Tool as McpToolDescription } from "../../protocol/types/tools.js";
import { isSessionExpired } from "../../transports/http/shared/client-errors.js";
import type { McpClient } from "../client.js";
import type { ToolCaller } from "../tools/tool-adapter.js";
import type { ToolResult } from "../tools/tool-result.js";
import type { ConnectionSettings } from "./client-options.js";
import type { ServerConfig } from "./config.js";
import { closedError, openClient } from "./open.js";
import type { ServerHealth, ServerState } from "./options.js";
import { retryDelays } from "./reconnect.js";

/** What a connection tells its owner. */
interface ConnectionEvents {
  state(state: ServerState, error?: Error): void;
  toolsChanged(reason: "reconnected" | "listChanged"): void;
  /** The client worked around something, such as a tool left out for its schema. */
  warning(message: string): void;
}

/**
 * Whether a failed HTTP request means the connection is gone. A closed connection or a session the
 * client could not renew says so; an internal error may be the server's answer or a network failure
 * (both arrive as `-32603`), so a ping decides.
 */
async function connectionLost(client: McpClient, error: unknown, probeTimeout: number): Promise<boolean> {
  if (!(error instanceof McpError)) return false;
  if (error.code === ErrorCode.ConnectionClosed || isSessionExpired(error)) return true;
  if (error.code !== ErrorCode.InternalError) return false;
  return client.ping({ timeout: probeTimeout }).then(
    () => false,
    () => true,
  );
}

/**
 * One configured server: its current `McpClient`, its tools, its health. When the connection is lost
 * (a stdio server exits, an HTTP server cannot be reached or its session cannot be renewed) it
 * reconnects with exponential backoff, lists the tools again and reports `toolsChanged`; calls made
 * meanwhile wait for it. Calls go through `callTool`, so a reconnect is invisible to tools.
 */
export class ServerConnection implements ToolCaller {
  state: ServerState = "connecting";
  tools: McpToolDescription[] = [];
  lastError: Error | undefined;
  reconnects = 0;
  private current: McpClient | undefined;
  private pending: Promise<McpClient> | undefined;
  private closed = false;
  /** Connects in progress, so `close()` can wait for them and nothing started is left running. */
  private readonly inflight = new Set<Promise<unknown>>();
  private wake: (() => void) | undefined;

  constructor(
    readonly name: string,
    readonly config: ServerConfig,
    private readonly settings: ConnectionSettings,
    private readonly events: ConnectionEvents,
  ) {}

  get transport(): "stdio" | "http" {
    return this.overHttp ? "http" : "stdio";
  }

  private get overHttp(): boolean {
    return !("command" in this.config);
  }

  /** The client of the live connection (replaced on reconnect), if there has been one. */
  get client(): McpClient | undefined {
    return this.current;
  }

  health(): ServerHealth {
    const health: ServerHealth = {
      state: this.state,
      transport: this.transport,
      tools: this.tools.length,
      reconnects: this.reconnects,
    };
    if (this.lastError) health.lastError = this.lastError;
    return health;
  }

  /** The first connect; rejects (and the state is `failed`) if it fails. */
  async start(): Promise<void> {
    const first = this.open().then(
      (client) => {
        this.setState("connected");
        return client;
      },
      (error: Error) => {
        this.lastError = error;
        if (!this.closed) this.setState("failed", error);
        throw error;
      },
    );
    this.pending = first.finally(() => {
      this.pending = undefined;
    });
    this.pending.catch(() => {});
    await first;
  }

  /** A live client: the current one, or the one a reconnect in progress (or started now) brings. */
  acquire(): Promise<McpClient> {
    if (this.closed) return Promise.reject(closedError(this.name));
    const client = this.current;
    if (this.state === "connected" && client && !client.isClosed) return Promise.resolve(client);
    if (this.pending) return this.pending;
    if (this.state === "connected") this.lost(new Error("the connection closed"));
    // Failed for good (or never connected): a call is a reason to try once more, now.
    return this.pending ?? this.reconnect(1);
  }

  callTool(name: string, args: Record<string, unknown>, options?: RequestOptions): Promise<ToolResult> {
    // Connected (the usual case): the call goes out now, with no wait to race against the signal;
    // over stdio a failure has nothing to probe either, so the client's own promise is the call's.
    const current = this.current;
    if (!this.closed && this.state === "connected" && current && !current.isClosed) {
      if (!this.overHttp) return current.callTool(name, args, options);
      return this.callOn(current, name, args, options);
    }
    return waitFor(this.acquire(), options?.signal).then((client) =>
      this.callOn(client, name, args, options),
    );
  }

  /** The call on `client`; an HTTP failure that means the connection was lost starts a reconnect. */
  private async callOn(
    client: McpClient,
    name: string,
    args: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<ToolResult> {
    try {
      return await client.callTool(name, args, options);
    } catch (error) {
      if (
        this.overHttp &&
        !options?.signal?.aborted &&
        (await connectionLost(client, error, Math.min(5000, this.settings.connectTimeout))) &&
        client === this.current
      ) {
        this.lost(error as Error);
      }
      throw error;
    }
  }

  /** Drops the connection and connects again (a manual reconnect). */
  async restart(): Promise<void> {
    if (this.closed) throw closedError(this.name);
    if (!this.pending) {
      const old = this.current;
      this.current = undefined;
      this.setState("reconnecting");
      await old?.close().catch(() => {});
    }
    await (this.pending ?? this.reconnect(1));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    await Promise.allSettled([...this.inflight]);
    await this.current?.close().catch(() => {});
    this.setState("closed");
  }

  /** Connects, lists the tools, and makes the result the current connection. */
  private open(): Promise<McpClient> {
    const opening = this.connect();
    this.track(opening.catch(() => {}));
    return opening;
  }

  private async connect(): Promise<McpClient> {
    const { client, tools } = await openClient(this.name, this.config, this.settings, {
      track: (promise) => this.track(promise),
      closed: () => this.closed,
      warning: (message) => this.events.warning(message),
    });
    this.tools = tools;
    this.current = client;
    client.on("close", (error) => {
      if (client === this.current && !this.closed) this.lost(error ?? new Error("the connection closed"));
    });
    client.on("toolsListChanged", () => void this.relist(client));
    return client;
  }

  private track(promise: Promise<unknown>): void {
    this.inflight.add(promise);
    void promise.finally(() => this.inflight.delete(promise));
  }

  /** The connection was lost: reconnect (unless reconnecting is off), the last tools kept meanwhile. */
  private lost(error: Error): void {
    if (this.closed || this.pending) return;
    const old = this.current;
    this.current = undefined;
    void old?.close().catch(() => {});
    this.lastError = error;
    if (this.settings.reconnect === false) {
      this.setState("failed", error);
      return;
    }
    // Under way before anyone hears of it, so a call made from a listener joins this reconnect.
    void this.reconnect(this.settings.reconnect.maxAttempts).catch(() => {});
    this.setState("reconnecting", error);
  }

  /** Tries up to `attempts` times, waiting longer each time; the first try is at once. */
  private reconnect(attempts = 1): Promise<McpClient> {
    if (this.pending) return this.pending;
    const delays = retryDelays(this.settings.reconnect || {});
    const run = async (): Promise<McpClient> => {
      for (let attempt = 1; ; attempt++) {
        if (this.closed) throw closedError(this.name);
        try {
          const client = await this.open();
          this.reconnects++;
          this.setState("connected");
          this.events.toolsChanged("reconnected");
          return client;
        } catch (error) {
          this.lastError = error as Error;
          if (this.closed) throw closedError(this.name);
          if (attempt >= attempts) {
            this.setState("failed", error as Error);
            throw error;
          }
        }
        await this.sleep(delays(attempt));
      }
    };
    const pending = run().finally(() => {
      this.pending = undefined;
    });
    this.pending = pending;
    pending.catch(() => {});
    return pending;
  }

  /** Lists the tools again, if connected; a failure is kept as the server's last error. */
  refresh(): Promise<void> {
    return this.current ? this.relist(this.current) : Promise.resolve();
  }

  private async relist(client: McpClient): Promise<void> {
    try {
      const tools = await client.listTools();
      if (client !== this.current) return;
      this.tools = tools;
      this.events.toolsChanged("listChanged");
    } catch (error) {
      this.lastError = error as Error;
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private setState(state: ServerState, error?: Error): void {
    if (this.state === state || this.state === "closed") return;
    this.state = state;
    this.events.state(state, error);
  }
}

/** `promise`, or the signal's reason as soon as it aborts. */
function waitFor<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
