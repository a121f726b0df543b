/**
 * What the resource and prompt syncs share: the mirror as they see it, and the step that brings one
 * server's registrations of a kind to what it lists now.
 */
import type { McpClient } from "../client/client.js";
import type { McpServer } from "../server/server.js";
import { describeError } from "./forward.js";
import type { Upstreams } from "./mirror-options.js";

/** A registration: which server it forwards to, and what it was made from (to notice changes). */
export interface Registered {
  server: string;
  fingerprint: string;
}

/** The mirror, as one server's syncs use it. */
export interface SyncContext {
  /** The server registrations are made on. */
  readonly target: McpServer;
  readonly upstreams: Upstreams;
  /** Whether the mirror stopped. */
  closed(): boolean;
  /** Reports `message`, once. */
  warn(message: string): void;
}

/** Whether `client` is still the server's live client (a reconnect replaces it). */
export function isCurrent(mirror: SyncContext, server: string, client: McpClient): boolean {
  if (mirror.closed()) return false;
  try {
    return mirror.upstreams.multi.client(server) === client;
  } catch {
    return false;
  }
}

/**
 * Brings one server's share of `registered` to `desired`: removes what is gone or changed, then
 * registers what is new. A key another server already registered stays theirs (with a warning).
 */
export function apply<T>(
  mirror: SyncContext,
  server: string,
  registered: Map<string, Registered>,
  desired: Map<string, T>,
  fingerprint: (item: T) => string,
  add: (key: string, item: T) => void,
  remove: (key: string) => void,
  what: string,
): void {
  if (mirror.closed()) return;
  const label = (name: string) => mirror.upstreams.label(name);
  for (const [key, entry] of registered) {
    if (entry.server !== server) continue;
    const item = desired.get(key);
    if (item !== undefined && fingerprint(item) === entry.fingerprint) continue;
    remove(key);
    registered.delete(key);
  }
  for (const [key, item] of desired) {
    const owner = registered.get(key);
    if (owner) {
      if (owner.server !== server) {
        mirror.warn(`${what} ${key} of ${label(server)} left out: ${label(owner.server)} offers it too`);
      }
      continue;
    }
    try {
      add(key, item);
      registered.set(key, { server, fingerprint: fingerprint(item) });
    } catch (error) {
      mirror.warn(`${what} ${key} of ${label(server)} left out: ${describeError(error)}`);
    }
  }
}
