/**
 * The usual multi-replica fixture: one redis-server, `n` replica processes on it and a round-robin
 * balancer over the replicas still alive, started before a file's tests and stopped after them.
 */
import { afterAll, beforeAll } from "vitest";
import { type Balancer, startBalancer } from "./balancer.js";
import { type RedisProcess, startRedis } from "./redis-server.js";
import { type Replica, startReplicas } from "./replicas.js";

export interface Cluster {
  readonly redis: RedisProcess;
  readonly replicas: Replica[];
  readonly balancer: Balancer;
}

const alive = (replica: Replica) => replica.child.exitCode === null && replica.child.signalCode === null;

/** Registers the file's `beforeAll`/`afterAll`; the returned object is filled once they ran. */
export function useCluster(n = 3): Cluster {
  const cluster = {} as { redis: RedisProcess; replicas: Replica[]; balancer: Balancer };
  beforeAll(async () => {
    cluster.redis = await startRedis();
    cluster.replicas = await startReplicas(n, cluster.redis.url);
    cluster.balancer = await startBalancer(() => cluster.replicas.filter(alive).map((r) => r.port));
  });
  afterAll(async () => {
    await cluster.balancer?.close();
    await Promise.all((cluster.replicas ?? []).map((r) => r.kill()));
    await cluster.redis?.stop();
  });
  return cluster;
}
