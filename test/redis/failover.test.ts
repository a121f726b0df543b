/**
 * Faults while three replicas serve behind a non-sticky balancer, each ending in a clear error long
 * before the client's own timeout, with no tool run twice: Redis frozen (SIGSTOP), the replica
 * writing a 2025-11-25 stream killed, the replica running a task killed. Deadlines and leases are
 * shortened through the replicas' options.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { initializeParams, initializeRequest } from "../helpers/initialize.js";
import { type Balancer, startBalancer } from "./helpers/balancer.js";
import { type Event, HEADERS, openSession, readEvents } from "./helpers/raw.js";
import { type RedisProcess, startRedis } from "./helpers/redis-server.js";
import { type Replica, startReplicas } from "./helpers/replicas.js";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const FIXTURE = fileURLToPath(new URL("./fixtures/failover-replica.js", import.meta.url));
const OPTIONS = { commandTimeout: 1000, leaseInterval: 200, leaseTtl: 1000 };
/** The client's own timeout: an answer that comes only then is the failure under test. */
const CLIENT_TIMEOUT = 45_000;

type Json = Record<string, any>;

interface Cluster {
  redis: RedisProcess;
  replicas: Replica[];
  balancer: Balancer;
  urls: string[];
}

const alive = (replica: Replica) => replica.child.exitCode === null && replica.child.signalCode === null;
let cluster: Cluster | undefined;

async function startCluster(): Promise<Cluster> {
  const redis = await startRedis();
  const replicas = await startReplicas(3, redis.url, (url) => [FIXTURE, url, JSON.stringify(OPTIONS)]);
  const balancer = await startBalancer(() => replicas.filter(alive).map((r) => r.port));
  cluster = { redis, replicas, balancer, urls: replicas.map((r) => `http://127.0.0.1:${r.port}/mcp`) };
  return cluster;
}

afterEach(async () => {
  const ended = cluster;
  cluster = undefined;
  if (!ended) return;
  ended.redis.signal("SIGCONT");
  await ended.balancer.close();
  await Promise.all(ended.replicas.map((r) => r.kill()));
  await ended.redis.stop();
});

/** How many times `tool` started, over every replica. */
function invocations(tool: string): number {
  let count = 0;
  for (const replica of cluster!.replicas)
    for (const line of replica.stderr().split("\n")) if (line === `invoked ${tool}`) count++;
  return count;
}

/** A JSON-RPC POST; its answer as JSON, or the last event of its stream. */
async function post(url: string, headers: Record<string, string>, id: number, method: string, params: Json) {
  const response = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
    signal: AbortSignal.timeout(CLIENT_TIMEOUT),
  });
  const text = await response.text();
  const data = text.startsWith("{") ? text : [...text.matchAll(/^data: (\{.*\})$/gm)].at(-1)?.[1];
  return {
    status: response.status,
    session: response.headers.get("mcp-session-id") ?? undefined,
    json: data === undefined ? undefined : (JSON.parse(data) as Json),
  };
}

const initialize = (url: string) =>
  post(url, HEADERS, 1, "initialize", initializeParams({ capabilities: { tasks: {} } }));

const slowCall = (n: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "slow", arguments: { n }, _meta: { progressToken: "p" } },
  });

describe("failover: every fault ends in a clear answer", () => {
  it("answers 503 while Redis is frozen, completes a call in progress, and recovers on SIGCONT", async () => {
    const { redis, urls } = await startCluster();
    const held = await openSession(urls[0]!);
    redis.signal("SIGSTOP");

    // New sessions need Redis: every replica says it did not answer, instead of hanging.
    for (const url of urls) {
      const refused = await initialize(url);
      expect(refused.status).toBe(503);
      expect(refused.json).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32000 } });
      expect(refused.json!.error.message).toMatch(/session store cannot be reached.*Redis.*did not answer/);
    }
    // A replica that must read the session from Redis says so too.
    const joined = await post(urls[1]!, held, 2, "tools/list", {});
    expect(joined.status).toBe(503);
    expect(joined.json!.error.message).toMatch(/Redis.*did not answer/);
    // A streamed call on the replica holding the session is answered: its events cannot be kept
    // for resumption, as with a Redis that is down.
    const response = await fetch(urls[0]!, {
      method: "POST",
      headers: held,
      body: slowCall(3),
      signal: AbortSignal.timeout(CLIENT_TIMEOUT),
    });
    const events = await readEvents(response);
    expect(events.at(-1)?.data).toMatchObject({ id: 7, result: { content: [{ text: "done" }] } });

    redis.signal("SIGCONT");
    // The replicas find Redis answering again on their own: a session opens on each.
    for (const url of urls) {
      let opened = await initialize(url);
      for (let i = 0; opened.status !== 200 && i < 100; i++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        opened = await initialize(url);
      }
      expect(opened.status).toBe(200);
    }
    expect(invocations("slow")).toBe(1);
  });

  it("ends a stream resumed from a killed replica with an error saying the tool may have run", async () => {
    const { balancer, replicas, urls } = await startCluster();
    const headers = await openSession(balancer.url);
    const victim = replicas[0]!;
    const first: Event[] = [];
    const response = await fetch(urls[0]!, { method: "POST", headers, body: slowCall(600) });
    let killed: Promise<void> | undefined;
    await readEvents(response, (event) => {
      first.push(event);
      if (first.filter((e) => e.data).length === 2) killed ??= victim.kill("SIGKILL");
    });
    await killed;
    const last = first.filter((e) => e.data).at(-1)!.id!;

    // Resumed on another replica, the stream ends with the request's answer: an error, not a hang.
    const resumed = await fetch(balancer.url, {
      method: "GET",
      headers: { ...headers, "last-event-id": last },
      signal: AbortSignal.timeout(CLIENT_TIMEOUT),
    });
    expect(resumed.status).toBe(200);
    const answer = (await readEvents(resumed)).filter((e) => e.data && "id" in e.data).at(-1)?.data;
    expect(answer).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32603 } });
    expect(answer!.error.message).toMatch(/died before answering it.*tool slow may have run/);
    expect(invocations("slow")).toBe(1);
  });

  it("rejects a 2025-11-25 client's call whose replica was killed mid-stream with that error", async () => {
    const { balancer, replicas } = await startCluster();
    const client = await McpClient.connect({ url: balancer.url, protocolVersion: "2025-11-25" });
    try {
      let killed: Promise<void> | undefined;
      const call = client.callTool(
        "slow",
        { n: 600 },
        {
          timeout: CLIENT_TIMEOUT,
          onProgress: ({ progress }) => {
            if (progress < 2) return;
            // The replica running it says so on stderr.
            killed ??= replicas.find((r) => r.stderr().includes("invoked slow"))!.kill("SIGKILL");
          },
        },
      );
      await expect(call).rejects.toThrow(/died before answering it.*tool slow may have run/);
      await killed;
      expect(invocations("slow")).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("fails a task whose replica was killed, and tasks/result settles on it", async () => {
    const { replicas, urls } = await startCluster();
    const init = await fetch(urls[0]!, {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify(initializeRequest({ capabilities: { tasks: {} } })),
    });
    await init.text();
    const session = { ...HEADERS, "mcp-session-id": init.headers.get("mcp-session-id")! };
    const created = await post(urls[0]!, session, 3, "tools/call", {
      name: "job",
      arguments: {},
      task: { ttl: 600_000 },
    });
    const taskId = created.json!.result.task.taskId as string;
    await replicas[0]!.kill("SIGKILL");

    // tasks/result waits for the task to end: it ends, failed, once the replica's lease lapsed.
    const result = await post(urls[1]!, session, 4, "tasks/result", { taskId });
    expect(result.json).toMatchObject({ id: 4, error: { code: -32603 } });
    expect(result.json!.error.message).toMatch(/replica running task .* died.*not run again/);
    const got = await post(urls[2]!, session, 5, "tasks/get", { taskId });
    expect(got.json!.result).toMatchObject({ taskId, status: "failed" });
    expect(got.json!.result.statusMessage).toMatch(/replica running this task died/);
    expect(invocations("job")).toBe(1);
  });

  it("lists a task whose replica was killed as failed", async () => {
    const { replicas, urls } = await startCluster();
    const init = await initialize(urls[0]!);
    const session = { ...HEADERS, "mcp-session-id": init.session! };
    const created = await post(urls[0]!, session, 3, "tools/call", {
      name: "job",
      arguments: {},
      task: { ttl: 600_000 },
    });
    const taskId = created.json!.result.task.taskId as string;
    await replicas[0]!.kill("SIGKILL");
    // Listed, and nothing else asked of it: it shows failed once the replica's lease lapsed.
    let listed: Json | undefined;
    for (let i = 0; i < 300 && listed?.status !== "failed"; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, OPTIONS.leaseInterval));
      const page = await post(urls[1 + (i % 2)]!, session, 10 + i, "tasks/list", {});
      listed = (page.json!.result.tasks as Json[]).find((task) => task.taskId === taskId);
    }
    expect(listed).toMatchObject({ taskId, status: "failed" });
    expect(listed!.statusMessage).toMatch(/replica running this task died/);
    expect(invocations("job")).toBe(1);
  });

  it("fails a 2026-07-28 tool call run as a task when its replica is killed", async () => {
    const { balancer, replicas } = await startCluster();
    const client = await McpClient.connect({ url: balancer.url, protocolVersion: "2026-07-28" });
    try {
      const running = new Promise<Replica>((resolve) => {
        for (const replica of replicas)
          replica.child.stderr!.on("data", () => {
            if (replica.stderr().includes("invoked job")) resolve(replica);
          });
      });
      const task = await client.callTool("job", {}, { task: true, timeout: CLIENT_TIMEOUT });
      // Killed once the client has its task: the one that ran it says so on stderr.
      await (await running).kill("SIGKILL");
      await expect(task.result()).rejects.toThrow(/replica running task .* died.*not run again/);
      expect((await task.status()).statusMessage).toMatch(/replica running this task died/);
      expect(invocations("job")).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("does not take a living replica for dead after Redis stalled past every lease", async () => {
    const { redis, urls } = await startCluster();
    const init = await initialize(urls[0]!);
    expect(init.status).toBe(200);
    const session = { ...HEADERS, "mcp-session-id": init.session! };
    const created = await post(urls[0]!, session, 3, "tools/call", {
      name: "job",
      arguments: {},
      task: { ttl: 600_000 },
    });
    const taskId = created.json!.result.task.taskId as string;

    redis.signal("SIGSTOP");
    // The stall is seen (past commandTimeout), then lasts past every lease's ttl.
    expect((await initialize(urls[1]!)).status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 3 * OPTIONS.leaseTtl));
    redis.signal("SIGCONT");

    // Asked as soon as Redis answers, and for a while after, the other replicas still see it run.
    let answered = 0;
    for (let i = 0; answered < 20 && i < 500; i++) {
      const got = await post(urls[1 + (i % 2)]!, session, 10 + i, "tasks/get", { taskId });
      if (got.status !== 200) continue;
      answered++;
      expect(got.json!.result).toMatchObject({ taskId, status: "working" });
      await new Promise((resolve) => setTimeout(resolve, OPTIONS.leaseInterval));
    }
    expect(answered).toBe(20);
  });
});
