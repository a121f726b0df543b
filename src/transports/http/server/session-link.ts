import { ErrorCode } from "../../../jsonrpc/errors.js";
import type { JSONRPCMessage, RequestId } from "../../../jsonrpc/messages.js";
import type { SharedSessionState } from "../../../protocol/transport.js";
import { Acknowledgements } from "./acknowledgements.js";
import type { Replication } from "./replication.js";

/** What a session's link does on the replica it belongs to. */
export interface SessionLinkHost {
  /** A client's response to a request this replica sent (its id restored), or its cancellation of a request. */
  deliver(message: JSONRPCMessage): void;
  /** A message for the GET stream, sent by another replica; written if this one holds it. */
  writeStandalone(message: JSONRPCMessage): void;
  /** Whether this replica holds the session's GET stream, with a client reading it. */
  listening(): boolean;
  /** The session was ended on another replica (DELETE). */
  end(): void;
}

type LinkMessage =
  | { from: string; t: "state"; state: Record<string, unknown>; seq?: number }
  | { from: string; t: "ack"; to: string; seq: number }
  | { from: string; t: "response"; message: JSONRPCMessage }
  | { from: string; t: "cancel"; message: JSONRPCMessage }
  | { from: string; t: "standalone"; message: JSONRPCMessage }
  | { from: string; t: "end" };

/** The most requests to the client one replica keeps waiting for in a session. */
const MAX_OUTSTANDING = 10_000;
/**
 * How long a save waits for the other replicas to take the new state, in ms. One that has not by
 * then is stalled; the state is kept in the store all the same.
 */
const ACK_TIMEOUT = 2000;

/**
 * One replica's link to a session served by several: it saves the server's state of the session
 * for the others, hands a client's responses to the replica that sent the request, sends what is
 * meant for the GET stream to whichever replica holds it, and ends the session everywhere.
 */
export class SessionLink implements SharedSessionState {
  /** The state as saved when this replica joined, or as another replica sent it since. */
  restored: Record<string, unknown> | undefined;
  onchange: ((state: Record<string, unknown>) => void) | undefined;
  /** Saves not yet kept; a response waits for them, so the next request finds the state anywhere. */
  saving: Promise<void> | undefined;
  /** Why the last save failed, for the response that waited for it. */
  saveError: Error | undefined;
  private stop: (() => void) | undefined;
  private closed = false;
  /** The ids this replica gave its requests to the client, to their ids in the engine. */
  private readonly outstanding = new Map<string, RequestId>();
  private readonly channel: string;
  /** This link's saves waiting for the other replicas to take them. */
  private readonly acks = new Acknowledgements(ACK_TIMEOUT);

  constructor(
    private readonly replication: Replication,
    readonly sessionId: string,
    private readonly host: SessionLinkHost,
  ) {
    this.channel = `session:${sessionId}`;
  }

  /**
   * The state read from the store after `start()`: a state another replica sent meanwhile is as
   * new or newer (its save is acknowledged only once it arrived here).
   */
  adopt(state: Record<string, unknown> | undefined): void {
    this.restored ??= state;
  }

  get deliversBroadcasts(): boolean {
    return this.host.listening();
  }

  /** Receives what the other replicas send this session, from now on. */
  async start(): Promise<void> {
    const stop = await this.replication.bus.subscribe(this.channel, (text) => this.receive(text));
    if (this.closed) stop();
    else this.stop = stop;
  }

  save(state: Record<string, unknown>): void {
    const { sessions } = this.replication;
    const kept = (this.saving ?? Promise.resolve()).then(async () => {
      await sessions.save(this.sessionId, state);
      this.saveError = undefined;
      await this.share(state);
    });
    const settled = kept.catch((error: unknown) => {
      this.saveError = error as Error;
    });
    this.saving = settled;
    void settled.then(() => {
      if (this.saving === settled) this.saving = undefined;
    });
  }

  /** A request to the client gets an id no other replica gives, so its response finds its way back. */
  outgoingId(id: RequestId): string {
    const wire = `${this.replication.bus.replicaId}.${id}`;
    if (this.outstanding.size >= MAX_OUTSTANDING)
      this.outstanding.delete(this.outstanding.keys().next().value!);
    this.outstanding.set(wire, id);
    return wire;
  }

  /**
   * A response from the client: the engine's id if this replica sent the request, else
   * `undefined` after passing it to the replica that did.
   */
  incomingResponse(message: JSONRPCMessage & { id: RequestId }): RequestId | undefined {
    const own = this.outstanding.get(String(message.id));
    if (own !== undefined) {
      this.outstanding.delete(String(message.id));
      return own;
    }
    void this.publish({ t: "response", message }).catch(() => {});
    return undefined;
  }

  /** A client's `notifications/cancelled`: the request may be running on another replica. */
  forwardCancel(message: JSONRPCMessage): void {
    void this.publish({ t: "cancel", message }).catch(() => {});
  }

  /** A message for the GET stream, which another replica holds (if any does). */
  sendStandalone(message: JSONRPCMessage): void {
    void this.publish({ t: "standalone", message }).catch(() => {});
  }

  /** Ends the session on every other replica. */
  async endEverywhere(): Promise<void> {
    await this.publish({ t: "end" });
  }

  close(): void {
    this.closed = true;
    this.stop?.();
    this.stop = undefined;
    this.acks.close();
  }

  /**
   * Sends the new state to the other replicas holding the session and waits until each took it,
   * so the response that follows a save finds the state wherever the client's next request goes.
   */
  private share(state: Record<string, unknown>): Promise<void> {
    return this.acks.publish((seq) => this.publish({ t: "state", state, seq }));
  }

  private publish(message: Record<string, unknown>): Promise<number | undefined> {
    const text = JSON.stringify({ from: this.replication.bus.replicaId, ...message });
    return this.replication.bus.publish(this.channel, text);
  }

  private receive(text: string): void {
    let message: LinkMessage;
    try {
      message = JSON.parse(text) as LinkMessage;
    } catch {
      return;
    }
    if (message.from === this.replication.bus.replicaId) return;
    switch (message.t) {
      case "state":
        if (this.onchange) this.onchange(message.state);
        else this.restored = message.state;
        if (typeof message.seq === "number")
          void this.publish({ t: "ack", to: message.from, seq: message.seq }).catch(() => {});
        return;
      case "ack":
        if (message.to === this.replication.bus.replicaId && typeof message.seq === "number")
          this.acks.acknowledged(message.seq);
        return;
      case "response": {
        const id = (message.message as { id?: RequestId }).id;
        const own = id === undefined ? undefined : this.outstanding.get(String(id));
        if (own === undefined) return;
        this.outstanding.delete(String(id));
        this.host.deliver({ ...message.message, id: own } as JSONRPCMessage);
        return;
      }
      case "cancel":
        // The replica running the request cancels it; the others know no such request.
        this.host.deliver(message.message);
        return;
      case "standalone":
        if (this.host.listening()) this.host.writeStandalone(message.message);
        return;
      case "end":
        this.host.end();
        return;
    }
  }
}

/** The answer to a request whose change of the session's state could not be kept. */
export function unkept(id: RequestId, error: Error): JSONRPCMessage {
  const message = `Session store unavailable: the session's state could not be saved (${error.message})`;
  return { jsonrpc: "2.0", id, error: { code: ErrorCode.InternalError, message } };
}
