/**
 * Resumable streams across replicas: a call's SSE events are kept in Redis Streams, so a client that
 * lost its stream resumes it with Last-Event-ID on another replica (through the balancer) and gets
 * every event exactly once, even when the replica that held the stream was killed.
 */
import { describe, expect, it, vi } from "vitest";
import { until } from "../helpers/until.js";
import { useCluster } from "./helpers/cluster.js";
import { type Event, openSession, readEvents } from "./helpers/raw.js";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const cluster = useCluster(3);

const slowCall = (n: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "slow", arguments: { n }, _meta: { progressToken: "p" } },
  });

/** The ids of a stream's entries in Redis, as event ids. */
function storedIds(streamId: string): string[] {
  const out = cluster.redis.cli("XRANGE", `test:events:${streamId}`, "-", "+");
  return out
    .split("\n")
    .filter((line) => /^\d+-\d+$/.test(line))
    .map((entry) => `${streamId}:${entry}`);
}

const withData = (events: Event[]) => events.filter((e) => e.data !== undefined);

describe("resuming a stream on another replica", () => {
  it("gets what a stream lost, and what follows, until the response, each event once", async () => {
    const headers = await openSession(cluster.balancer.url);
    const direct = `http://127.0.0.1:${cluster.replicas[0]!.port}/mcp`;
    const controller = new AbortController();
    const first: Event[] = [];
    const response = await fetch(direct, {
      method: "POST",
      headers,
      body: slowCall(8),
      signal: controller.signal,
    });
    // The client drops the stream after two progress events; the call goes on on its replica.
    await readEvents(response, (event) => {
      first.push(event);
      if (withData(first).length === 2) controller.abort();
    });
    let last = first.at(-1)!.id!;
    const later: Event[] = [];
    // Resumed on another replica (round robin), the stream is followed there to its response; a
    // client that loses it again would come back for the rest.
    const resume = async () => {
      const resumed = await fetch(cluster.balancer.url, {
        method: "GET",
        headers: { ...headers, "last-event-id": last },
      });
      expect(resumed.status).toBe(200);
      const events = withData(await readEvents(resumed));
      later.push(...events);
      if (events.length > 0) last = events.at(-1)!.id!;
      return later.some((e) => e.data && "result" in e.data);
    };
    await until(resume, { what: "the resumed streams to bring the response", intervalMs: 100 });
    const all = [...withData(first), ...later];
    const progress = all
      .filter((e) => e.data?.method === "notifications/progress")
      .map((e) => e.data!.params.progress);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(all.at(-1)!.data).toMatchObject({ id: 7, result: { content: [{ type: "text", text: "done" }] } });
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
  });

  it("gets every event a killed replica kept, exactly once, from another replica", async () => {
    const headers = await openSession(cluster.balancer.url);
    const victim = cluster.replicas[1]!;
    const first: Event[] = [];
    const response = await fetch(`http://127.0.0.1:${victim.port}/mcp`, {
      method: "POST",
      headers,
      body: slowCall(50),
    });
    let killed: Promise<void> | undefined;
    await readEvents(response, (event) => {
      first.push(event);
      if (withData(first).length === 3) killed ??= victim.kill("SIGKILL");
    });
    await killed;
    const streamId = first[0]!.id!.slice(0, first[0]!.id!.lastIndexOf(":"));
    const last = withData(first).at(-1)!.id!;
    // The stream will not finish (its writer is gone): read until everything it kept has come.
    const stored = storedIds(streamId);
    const controller = new AbortController();
    const resumed = await fetch(cluster.balancer.url, {
      method: "GET",
      headers: { ...headers, "last-event-id": last },
      signal: controller.signal,
    });
    expect(resumed.status).toBe(200);
    const later: Event[] = [];
    const seen = () => withData(first).length + later.length;
    if (seen() >= stored.length) controller.abort();
    await readEvents(resumed, (event) => {
      if (event.data !== undefined) later.push(event);
      if (seen() >= stored.length) controller.abort();
    });
    const received = [...withData(first), ...later].map((e) => e.id);
    // Everything the killed replica kept, in order, none twice, none missing.
    expect(received).toEqual(stored);
    expect(received.length).toBeGreaterThanOrEqual(3);
  });
});
