/**
 * A client that stops reading its GET stream, on two replicas sharing a redis-server: replica B
 * floods every session with large log messages, which reach the client's GET stream on replica A
 * through Redis. A holds at most its `maxStreamBuffer` (256 KiB here) beyond the kernel, then
 * closes the stream and logs it; the events it wrote stay in Redis, and the client gets what it
 * missed by resuming with Last-Event-ID on B.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openSlowReader } from "../helpers/slow-reader.js";
import { openSession, readEvents } from "./helpers/raw.js";
import { type RedisProcess, startRedis } from "./helpers/redis-server.js";
import { type Replica, startReplicas } from "./helpers/replicas.js";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const FIXTURE = new URL("./fixtures/slow-consumer-replica.js", import.meta.url).pathname;
const LIMIT = 256 * 1024;

let redis: RedisProcess;
let replicas: Replica[];

beforeAll(async () => {
  redis = await startRedis();
  replicas = await startReplicas(2, redis.url, (url) => [FIXTURE, url]);
});

afterAll(async () => {
  await Promise.all((replicas ?? []).map((replica) => replica.kill()));
  await redis?.stop();
});

const endpoint = (replica: Replica) => `http://127.0.0.1:${replica.port}/mcp`;

/** Calls a tool of the session on `replica`; its text. */
async function call(replica: Replica, session: Record<string, string>, name: string, args = {}) {
  const response = await fetch(endpoint(replica), {
    method: "POST",
    headers: session,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: name,
      method: "tools/call",
      params: { name, arguments: args },
    }),
  });
  const answer: Record<string, any> | undefined = response.headers
    .get("content-type")
    ?.startsWith("text/event-stream")
    ? (await readEvents(response)).find((e) => e.data?.id === name)?.data
    : ((await response.json()) as Record<string, any>);
  return answer?.result?.content?.[0]?.text as string;
}

/** Resolves once `replica` has written a line matching `pattern` to stderr. */
function stderrLine(replica: Replica, pattern: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const look = () => {
      const line = replica
        .stderr()
        .split("\n")
        .find((l) => pattern.test(l));
      if (line === undefined) return false;
      replica.child.stderr!.off("data", look);
      resolve(line);
      return true;
    };
    if (!look()) replica.child.stderr!.on("data", look);
  });
}

/** `promise`, or a failure saying `what` did not happen within `ms` (a bound, not what is tested). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function indexes(events: { data?: unknown }[]): number[] {
  const out: number[] = [];
  for (const event of events) {
    const data =
      typeof event.data === "string" ? (event.data ? JSON.parse(event.data) : undefined) : event.data;
    const i = (data as { params?: { data?: { i?: unknown } } } | undefined)?.params?.data?.i;
    if (typeof i === "number") out.push(i);
  }
  return out;
}

describe("a GET stream whose client stops reading, on replicas", () => {
  it("is closed past maxStreamBuffer on the replica holding it, and resumes from Redis on another", async () => {
    const [a, b] = replicas as [Replica, Replica];
    const session = await openSession(endpoint(a));
    const reader = await openSlowReader(a.port, {
      method: "GET",
      path: "/mcp",
      headers: {
        accept: "text/event-stream",
        "mcp-session-id": session["mcp-session-id"]!,
        "mcp-protocol-version": "2025-11-25",
      },
    });
    expect(reader.head).toMatch(/^HTTP\/1\.1 200/);

    const closed = stderrLine(a, /^warning: closed the GET event stream/);
    // B floods (at most 800 messages of 32 KiB) until A says it closed the stream.
    const flooding = call(b, session, "flood", { n: 800 });
    await Promise.race([closed, flooding]);
    await call(b, session, "stop");
    const sent = Number(await flooding);
    const peak = Number(await call(a, session, "peak"));
    const warning = await within(
      closed,
      30_000,
      `replica A did not close the stream after ${sent} messages of 32 KiB (at most ${peak} bytes queued)`,
    );
    expect(warning).toMatch(/may resume it with Last-Event-ID$/);
    expect(peak).toBeLessThanOrEqual(LIMIT);

    const received = await reader.readRest();
    const got = indexes(received);
    expect(got).toEqual(got.map((_, i) => i));

    // On B, after the last event it got: what A wrote and the client did not get comes from Redis.
    const last = received.filter((e) => e.data !== "").at(-1)!.id!;
    const resumed = await fetch(endpoint(b), {
      headers: {
        accept: "text/event-stream",
        "mcp-session-id": session["mcp-session-id"]!,
        "mcp-protocol-version": "2025-11-25",
        "last-event-id": last,
      },
    });
    expect(resumed.status).toBe(200);
    const stop = new AbortController();
    const replaying = readEvents(resumed, (e) => e.data?.params?.data?.marker && stop.abort(), stop.signal);
    // B holds the stream once it has replayed what the client missed; a marker sent before that
    // reaches no one, so markers are sent until one comes (after the replay).
    const deadline = Date.now() + 30_000;
    while (!stop.signal.aborted) {
      if (Date.now() > deadline) throw new Error("no marker came after the replay within 30 s");
      expect(await call(b, session, "mark")).toBe("marked");
    }
    const replayed = indexes(await replaying);
    expect(replayed.length).toBeGreaterThan(0);
    const all = [...got, ...replayed];
    expect(all).toEqual(all.map((_, i) => i));
    expect(all.length).toBeLessThanOrEqual(sent);
  });
});
