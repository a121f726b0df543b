/**
 * `mcpkit/redis`: run a server as several interchangeable replicas behind a load balancer, with
 * sessions, SSE events and messages between replicas kept in Redis (`@redis/client`, an optional
 * peer dependency loaded only by this entry).
 */
export { RedisMessageBus } from "./bus.js";
export { RedisConnection, type RedisConnectionOptions } from "./connection.js";
export { RedisEventStore } from "./event-store.js";
export { type LeaseOptions, ReplicaLease } from "./lease.js";
export { type RedisReplication, type RedisReplicationOptions, redisReplication } from "./replication.js";
export { RedisSessionStore } from "./session-store.js";
export { RedisTaskStore, type RedisTaskStoreOptions } from "./task-store.js";
