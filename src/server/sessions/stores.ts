/**
 * What multi-replica serving plugs in: the sessions and the stream events the replicas share, and
 * the bus between them (`mcpkit/redis` makes all three on Redis). Integrations take these from
 * here, the server role, never from the transport's files.
 *
 * The interfaces are declared in the Streamable HTTP transport, which is their first user: it
 * keeps a session's record in the `SessionStore`, hands a client's responses and its GET stream's
 * messages to the replica that awaits them over the `MessageBus`, and resumes streams from the
 * `EventStore`. A layer below the roles cannot import them from here.
 */
export {
  type EventStore,
  MemoryEventStore,
  type StreamedRequest,
} from "../../transports/http/server/event-store.js";
export type {
  MessageBus,
  Replication,
  SessionRecord,
  SessionStore,
} from "../../transports/http/server/replication.js";

/**
 * The shared stores cannot be reached now; requests that need them fail until they are back. The
 * stores throw it; the HTTP endpoint answers 503 to what it interrupted.
 */
export class ReplicationUnavailableError extends Error {
  override name = "ReplicationUnavailableError";
}
