/** A real redis-server on a free port (scripts/replicas/), for the replica tests. */
export { freePort, type RedisProcess, startRedis } from "../../../scripts/replicas/redis-server.mjs";
