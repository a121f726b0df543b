import { describe, expect, it } from "vitest";
import type { MessageBus, Replication, SessionStore } from "../../src/transports/http/server/replication.js";
import { SessionLink, type SessionLinkHost } from "../../src/transports/http/server/session-link.js";

/** A bus that delivers each message `delay` ms late, as a busy replica's subscription does. */
function slowBus(
  channels: Map<string, Set<(message: string) => void>>,
  replicaId: string,
  delay: number,
): MessageBus {
  return {
    replicaId,
    publish: async (channel, message) => {
      const listeners = channels.get(channel) ?? new Set();
      for (const listener of listeners) setTimeout(() => listener(message), delay);
      return listeners.size;
    },
    subscribe: async (channel, listener) => {
      const listeners = channels.get(channel) ?? new Set();
      channels.set(channel, listeners);
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function memorySessions(): SessionStore {
  const states = new Map<string, Record<string, unknown>>();
  return {
    idleTimeout: 60_000,
    create: async () => {},
    touch: async (id) => ({ principal: undefined, state: states.get(id) }),
    save: async (id, state) => void states.set(id, state),
    delete: async (id) => void states.delete(id),
  };
}

const host: SessionLinkHost = { deliver() {}, writeStandalone() {}, listening: () => false, end() {} };

function replicas(count: number, delay: number): SessionLink[] {
  const channels = new Map<string, Set<(message: string) => void>>();
  const sessions = memorySessions();
  return Array.from({ length: count }, (_, i) => {
    const replication = {
      sessions,
      bus: slowBus(channels, `r${i}`, delay),
      events: undefined,
    } as unknown as Replication;
    return new SessionLink(replication, "s1", host);
  });
}

describe("a session's state shared between replicas", () => {
  it("is kept only once every other replica holding the session took it", async () => {
    const [a, b, c] = replicas(3, 30) as [SessionLink, SessionLink, SessionLink];
    await Promise.all([a.start(), b.start(), c.start()]);
    const heard: string[] = [];
    b.onchange = (state) => heard.push(`b:${String(state.logLevel)}`);
    c.onchange = (state) => heard.push(`c:${String(state.logLevel)}`);
    a.save({ logLevel: "warning" });
    await a.saving;
    expect(a.saveError).toBeUndefined();
    expect(heard.sort()).toEqual(["b:warning", "c:warning"]);
    for (const link of [a, b, c]) link.close();
  });

  it("stops waiting for a replica that never takes it, and the state stays saved", async () => {
    const channels = new Map<string, Set<(message: string) => void>>();
    const sessions = memorySessions();
    const replication = {
      sessions,
      bus: slowBus(channels, "r0", 0),
      events: undefined,
    } as unknown as Replication;
    const a = new SessionLink(replication, "s1", host);
    await a.start();
    // A subscriber that counts as a receiver but never answers, as a stalled replica.
    channels.get("session:s1")!.add(() => {});
    a.save({ logLevel: "error" });
    await a.saving;
    expect(a.saveError).toBeUndefined();
    expect((await sessions.touch("s1"))?.state).toEqual({ logLevel: "error" });
    a.close();
  });

  it("lets a joining replica keep a state it heard over an older one it read", async () => {
    const [a, b] = replicas(2, 0) as [SessionLink, SessionLink];
    await Promise.all([a.start(), b.start()]);
    a.save({ logLevel: "debug" });
    await a.saving;
    b.adopt({ logLevel: "info" });
    expect(b.restored).toEqual({ logLevel: "debug" });
    a.close();
    b.close();
  });
});
