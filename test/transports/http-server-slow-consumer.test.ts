/**
 * Clients that stop reading their event streams: a raw socket that sends its request, reads the
 * head of the response, then is paused for good, while the server sends large notifications. The
 * server holds at most `maxStreamBuffer` for it beyond the kernel, then closes the stream and says
 * so through `onWarning`; a resumable stream's events stay in the event store, and the client gets
 * what it missed by reconnecting with Last-Event-ID. GET streams, POST streams, the legacy HTTP+SSE
 * stream and the web handler's streams alike.
 */
import { describe, expect, it } from "vitest";
import { McpServer } from "../../src/server/index.js";
import type { SseEvent } from "../../src/transports/http/shared/sse.js";
import { closeAfterEach, serve } from "../helpers/http-sdk-clients.js";
import { INITIALIZED, initializeRequest } from "../helpers/initialize.js";
import { measureQueues, openSlowReader } from "../helpers/slow-reader.js";
import { type Event, openSession, readEvents } from "../redis/helpers/raw.js";

closeAfterEach();

const LIMIT = { bytes: 256 * 1024, events: 10_000 };
/** Each notification's padding: the limit is a few of them. */
const PAD = "x".repeat(32 * 1024);
/** More than the kernel's buffers on loopback and the limit hold together, many times over. */
const MOST = 800;

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Calls `send` with 0, 1, 2… a tick apart until `closed()` says so, or `MOST` times; how many it sent. */
async function flood(send: (i: number) => void, closed: () => boolean): Promise<number> {
  let sent = 0;
  while (!closed() && sent < MOST) {
    send(sent++);
    await tick();
  }
  return sent;
}

/** The flood indexes of notifications/message events, in order. */
function indexes(events: (SseEvent | Event)[]): number[] {
  const out: number[] = [];
  for (const event of events) {
    const data =
      typeof event.data === "string" ? (event.data ? JSON.parse(event.data) : undefined) : event.data;
    const i = data?.params?.data?.i;
    if (typeof i === "number") out.push(i);
  }
  return out;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

const getHeaders = (session: Record<string, string>) => ({
  accept: "text/event-stream",
  "mcp-session-id": session["mcp-session-id"]!,
  "mcp-protocol-version": "2025-11-25",
});

describe("a GET stream whose client stops reading", () => {
  it("is closed past maxStreamBuffer, with a warning, and resumes from the event store", async () => {
    const warnings: string[] = [];
    const server = new McpServer({ name: "flood", version: "1.0.0" });
    const { handle } = await serve(server, { maxStreamBuffer: LIMIT, onWarning: (m) => warnings.push(m) });
    const queues = measureQueues(handle.server);
    const session = await openSession(handle.url);
    const reader = await openSlowReader(handle.port, {
      method: "GET",
      path: "/mcp",
      headers: getHeaders(session),
    });
    expect(reader.head).toMatch(/^HTTP\/1\.1 200/);

    const sent = await flood(
      (i) => server.log("info", { i, pad: PAD }),
      () => warnings.length > 0,
    );
    expect(
      warnings,
      `the stream was not closed after ${sent} notifications of 32 KiB (at most ${queues.peak} bytes queued)`,
    ).toEqual([expect.stringMatching(/^closed the GET event stream .* may resume it with Last-Event-ID$/)]);
    expect(queues.peak).toBeLessThanOrEqual(LIMIT.bytes);

    // The server closed the connection: the client gets what the kernel held, then the end.
    const received = await reader.readRest();
    const got = indexes(received);
    expect(got).toEqual(range(got.length));
    expect(got.length).toBeLessThan(sent);

    // Reconnecting after the last event it got, the client gets the rest from the event store.
    const last = received.filter((e) => e.data !== "").at(-1)!.id!;
    const resumed = await fetch(handle.url, { headers: { ...getHeaders(session), "last-event-id": last } });
    expect(resumed.status).toBe(200);
    const stop = new AbortController();
    const replaying = readEvents(resumed, (e) => e.data?.params?.data?.marker && stop.abort(), stop.signal);
    server.log("info", { marker: true });
    const replayed = indexes(await replaying);
    expect([...got, ...replayed]).toEqual(range(sent));
  });
});

describe("a POST stream whose client stops reading", () => {
  it("is closed past maxStreamBuffer while the call goes on, and its answer is kept for Last-Event-ID", async () => {
    const warnings: string[] = [];
    let sent = 0;
    let floodEnded!: () => void;
    const ended = new Promise<void>((resolve) => {
      floodEnded = resolve;
    });
    const server = new McpServer({ name: "chatty", version: "1.0.0" }).tool(
      "chatty",
      { description: "Logs large messages until its stream is closed" },
      async (_args, ctx) => {
        sent = await flood(
          (i) => ctx.log("info", { i, pad: PAD }),
          () => warnings.length > 0,
        );
        floodEnded();
        return `sent ${sent}`;
      },
    );
    const { handle } = await serve(server, { maxStreamBuffer: LIMIT, onWarning: (m) => warnings.push(m) });
    const queues = measureQueues(handle.server);
    const session = await openSession(handle.url);
    const reader = await openSlowReader(handle.port, {
      method: "POST",
      path: "/mcp",
      headers: session,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "chatty" } }),
    });
    expect(reader.head).toMatch(/^HTTP\/1\.1 200[\s\S]*text\/event-stream/i);

    // The call goes on until the stream is closed (or it sent the most it sends).
    await ended;
    expect(
      warnings,
      `the stream was not closed after ${sent} notifications of 32 KiB (at most ${queues.peak} bytes queued)`,
    ).toEqual([expect.stringMatching(/^closed the event stream of a POST /)]);
    const received = await reader.readRest();
    expect(queues.peak).toBeLessThanOrEqual(LIMIT.bytes);
    const got = indexes(received);
    expect(got).toEqual(range(got.length));

    const last = received.filter((e) => e.data !== "").at(-1)!.id!;
    const resumed = await fetch(handle.url, { headers: { ...getHeaders(session), "last-event-id": last } });
    // The call ended: the stream replays to its answer, then ends.
    const rest = await readEvents(resumed);
    expect([...got, ...indexes(rest)]).toEqual(range(sent));
    expect(rest.at(-1)!.data).toMatchObject({ id: 1, result: { content: [{ text: `sent ${sent}` }] } });
  });
});

describe("a legacy HTTP+SSE stream whose client stops reading", () => {
  it("is closed past maxStreamBuffer, ending its session, with a warning", async () => {
    const warnings: string[] = [];
    const server = new McpServer({ name: "flood", version: "1.0.0" });
    const { handle } = await serve(server, {
      legacySse: true,
      maxStreamBuffer: LIMIT,
      onWarning: (m) => warnings.push(m),
    });
    const queues = measureQueues(handle.server);
    const reader = await openSlowReader(handle.port, {
      method: "GET",
      path: "/sse",
      headers: { accept: "text/event-stream" },
      waitFor: /event: endpoint\ndata: .*\n\n/,
    });
    const endpoint = new URL(/data: (.*)\n/.exec(reader.start)![1]!, handle.url).href;
    const post = (message: object) =>
      fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(message),
      });
    expect((await post(initializeRequest({ id: 0, protocolVersion: "2024-11-05" }))).status).toBe(202);
    expect((await post(INITIALIZED)).status).toBe(202);

    // Sent once the session has answered initialize (on the stream the client does not read).
    const sent = await flood(
      (i) => server.log("info", { i, pad: PAD }),
      () => warnings.length > 0,
    );
    expect(
      warnings,
      `the stream was not closed after ${sent} notifications of 32 KiB (at most ${queues.peak} bytes queued)`,
    ).toEqual([
      expect.stringMatching(/^closed the event stream \(and so the session\) of an HTTP\+SSE client/),
    ]);
    expect(queues.peak).toBeLessThanOrEqual(LIMIT.bytes);
    await reader.readRest();
    expect((await post({ jsonrpc: "2.0", id: 1, method: "ping" })).status).toBe(404);
  });
});

const WEB = "http://127.0.0.1/mcp";

/** A server behind its web handler, with an initialized session whose GET stream is read up to its priming event. */
async function webGetStream(maxStreamBuffer: { bytes: number; events: number }) {
  const warnings: string[] = [];
  const server = new McpServer(
    { name: "flood", version: "1.0.0" },
    { http: { maxStreamBuffer, onWarning: (m) => warnings.push(m) } },
  );
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25",
  };
  const post = (body: object, sent: Record<string, string>) =>
    server.fetch(new Request(WEB, { method: "POST", headers: sent, body: JSON.stringify(body) }));
  const init = await post(initializeRequest({ id: 0, clientInfo: { name: "web", version: "1" } }), headers);
  await init.text();
  const session = { ...headers, "mcp-session-id": init.headers.get("mcp-session-id")! };
  await (await post(INITIALIZED, session)).text();
  const response = await server.fetch(new Request(WEB, { headers: getHeaders(session) }));
  const reader = response.body!.getReader();
  // The priming event, then nothing more is read.
  const priming = new TextDecoder().decode((await reader.read()).value);
  return { server, warnings, session, reader, primingId: /id: (.*)\n/.exec(priming)![1]! };
}

describe("a web handler's stream whose reader stops reading", () => {
  it("is errored past maxStreamBuffer's bytes, with a warning, and resumes from the event store", async () => {
    const { server, warnings, session, reader, primingId } = await webGetStream(LIMIT);
    try {
      const sent = await flood(
        (i) => server.log("info", { i, pad: PAD }),
        () => warnings.length > 0,
      );
      expect(warnings, `the stream was not closed after ${sent} notifications of 32 KiB`).toHaveLength(1);
      const queued = /, and (\d+) bytes in (\d+) events were waiting/.exec(warnings[0]!);
      expect(Number(queued?.[1])).toBeLessThanOrEqual(LIMIT.bytes);
      await expect(reader.read()).rejects.toThrow(/did not read/);

      const resumed = await server.fetch(
        new Request(WEB, { headers: { ...getHeaders(session), "last-event-id": primingId } }),
      );
      const stop = new AbortController();
      const replaying = readEvents(resumed, (e) => e.data?.params?.data?.marker && stop.abort(), stop.signal);
      server.log("info", { marker: true });
      expect(indexes(await replaying)).toEqual(range(sent));
    } finally {
      await server.close();
    }
  });

  it("is errored past maxStreamBuffer's events, however small they are", async () => {
    const { server, warnings, reader } = await webGetStream({ bytes: LIMIT.bytes, events: 20 });
    try {
      const sent = await flood(
        (i) => server.log("info", { i }),
        () => warnings.length > 0,
      );
      expect(warnings, `the stream was not closed after ${sent} small notifications`).toEqual([
        expect.stringMatching(
          /, and \d+ bytes in 20 events were waiting \(maxStreamBuffer: \d+ bytes, 20 events\)/,
        ),
      ]);
      expect(sent).toBe(21);
      await expect(reader.read()).rejects.toThrow(/did not read/);
    } finally {
      await server.close();
    }
  });
});

describe("maxStreamBuffer", () => {
  it("must be positive integers", async () => {
    const server = new McpServer({ name: "bad", version: "1.0.0" });
    await expect(serve(server, { maxStreamBuffer: { bytes: 0 } })).rejects.toThrow(
      "maxStreamBuffer.bytes must be a positive integer, not 0",
    );
  });
});
