/**
 * Our Streamable HTTP server's streams against the official SDK clients on 127.0.0.1: resumption of a
 * dropped POST stream with GET + `Last-Event-ID` (SDK v1 and v2, `ctx.closeStream()`), resumption from a
 * priming event, what the GET stream carries, and idle-session expiry while a call is in flight.
 * Every message either side sends is checked against the negotiated revision's schema.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it, vi } from "vitest";
import { McpServer } from "../../src/server/index.js";
import { createEverythingServer } from "../../src/servers/everything/index.js";
import { OpenSessions } from "../../src/transports/http/server/session-store.js";
import {
  CLIENT_INFO,
  clients,
  closeAfterEach,
  connectV1,
  connectV2,
  type Message,
  type Progress,
  parseSse,
  serve,
} from "../helpers/http-sdk-clients.js";
import { initializeRequest } from "../helpers/initialize.js";
import { MessageLog } from "../helpers/spec-schema.js";
import { until } from "../helpers/until.js";

const VERSION = "2025-11-25";

closeAfterEach();

/** A server whose `drop` tool sends progress, ends its own SSE stream, then finishes. */
function dropServer(): McpServer {
  return new McpServer({ name: "drop", version: "1.0.0" }).tool(
    "drop",
    { description: "Closes its stream mid-call" },
    async (_args, ctx) => {
      ctx.progress(1, 2, "before the drop");
      const closed = ctx.closeStream();
      // Sent while the client is away: the event store keeps it for the resumed stream.
      ctx.progress(2, 2, "after the drop");
      return `closed=${closed}`;
    },
  );
}

describe.each([
  { name: "SDK v1", connect: (url: string, log: MessageLog) => connectV1(new HttpV1(new URL(url)), log) },
  { name: "SDK v2", connect: connectV2 },
])("resumption after a dropped stream ($name)", ({ connect }) => {
  it("reconnects with GET + Last-Event-ID and gets the rest of the call", async () => {
    const { handle, requests } = await serve(dropServer(), { retryInterval: 50 });
    const log = new MessageLog();
    const client = await connect(handle.url, log);
    const seen: Progress[] = [];
    const result = await client.call("drop", (p) => void seen.push(p));
    expect(result.content).toEqual([{ type: "text", text: "closed=true" }]);
    const resumes = requests.filter((r) => r.method === "GET" && r.headers["last-event-id"] !== undefined);
    expect(resumes).toHaveLength(1);
    // The client resumes after the last event it saw: the first progress notification.
    expect(resumes[0]!.headers["last-event-id"]).toMatch(/:1$/);
    expect(resumes[0]!.headers["mcp-session-id"]).toBe(requests[1]!.headers["mcp-session-id"]);
    expect(resumes[0]!.headers["mcp-session-id"]).toMatch(/^[\x21-\x7e]+$/);
    expect(seen.map((p) => p.progress)).toEqual(seen.length === 2 ? [1, 2] : [1]);
    const progress = log.entries.filter((e) => (e.message as Message).method === "notifications/progress");
    expect(progress).toHaveLength(2);
    expect(log.problems(VERSION)).toEqual([]);
  });
});

describe("closeStream without an event store", () => {
  it("leaves the stream open and returns false", async () => {
    const { handle, requests } = await serve(dropServer(), { eventStore: false, retryInterval: 50 });
    const log = new MessageLog();
    const client = await connectV1(new HttpV1(new URL(handle.url)), log);
    const seen: Progress[] = [];
    const result = await client.call("drop", (p) => void seen.push(p));
    expect(result.content).toEqual([{ type: "text", text: "closed=false" }]);
    expect(requests.filter((r) => r.headers["last-event-id"] !== undefined)).toEqual([]);
    expect(seen[0]?.progress).toBe(1);
    expect(log.problems(VERSION)).toEqual([]);
  });
});

describe("resumption from the priming event (SDK v1)", () => {
  // A stream closed before any message: the client only saw the priming event (`<stream>:0`, empty data)
  // and resumes from it (SEP-1699); the store holds nothing of that stream yet.
  it.each(["auto", "sse"] as const)("gets the result (responseMode %s)", async (responseMode) => {
    const { handle, requests } = await serve(createEverythingServer(), { retryInterval: 50, responseMode });
    const log = new MessageLog();
    const client = await connectV1(new HttpV1(new URL(handle.url)), log);
    const result = await client.call("test_reconnection");
    expect(result.content[0]?.text).toBe(
      "Reconnection test completed: the result arrived on the resumed stream",
    );
    const resumes = requests.filter((r) => r.headers["last-event-id"] !== undefined);
    expect(resumes.map((r) => r.headers["last-event-id"])).toEqual([expect.stringMatching(/:0$/)]);
    expect(log.problems(VERSION)).toEqual([]);
  });
});

const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** Opens a session with raw requests; returns the headers of a POST on it. */
async function rawSession(url: string): Promise<Record<string, string>> {
  const init = await fetch(url, {
    method: "POST",
    headers: POST_HEADERS,
    body: JSON.stringify(initializeRequest({ protocolVersion: VERSION, clientInfo: CLIENT_INFO })),
  });
  expect(init.status).toBe(200);
  await init.text();
  const headers = {
    ...POST_HEADERS,
    "mcp-session-id": init.headers.get("mcp-session-id")!,
    "mcp-protocol-version": VERSION,
  };
  const initialized = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
  expect((await fetch(url, { method: "POST", headers, body: initialized })).status).toBe(202);
  return headers;
}

/**
 * The JSON-RPC messages a GET with `headers` receives, read until `enough` holds of them (then the
 * stream is dropped), or without `enough` to the stream's end. Fails naming `what` if that does not
 * come within a generous bound.
 */
async function getMessages(
  url: string,
  headers: Record<string, string>,
  { enough, what }: { enough?: (messages: Message[]) => boolean; what: string },
): Promise<Message[]> {
  const abort = new AbortController();
  const get = await fetch(url, {
    headers: { ...headers, accept: "text/event-stream" },
    signal: abort.signal,
  });
  expect(get.status).toBe(200);
  const timer = setTimeout(() => abort.abort(), 20_000);
  const decoder = new TextDecoder();
  let text = "";
  let messages: Message[] = [];
  try {
    for await (const chunk of get.body!) {
      text += decoder.decode(chunk as Uint8Array, { stream: true });
      const complete = text.slice(0, text.lastIndexOf("\n\n") + 2);
      messages = parseSse(complete).flatMap((e) => (e.data ? [e.data] : []));
      if (enough?.(messages)) return messages;
    }
    if (!enough) return messages;
  } catch {
    // aborted at the bound
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  throw new Error(`The GET stream did not bring ${what}; it brought ${JSON.stringify(messages)}`);
}

describe("the GET stream", () => {
  // A message sent before the client opens its GET stream is kept and delivered when it does.
  it("delivers a message sent before the client opened it", async () => {
    const server = createEverythingServer();
    const { handle } = await serve(server);
    const headers = await rawSession(handle.url);
    server.log("info", "sent before the GET");
    const enough = (messages: Message[]) => messages.length > 0;
    expect(await getMessages(handle.url, headers, { enough, what: "the log message" })).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", data: "sent before the GET" },
      },
    ]);
  });

  // Event ids are only unique within a session (spec 2025-11-25, Resumability): a Last-Event-ID of another
  // session's stream must replay nothing.
  it("does not replay another session's stream to a Last-Event-ID", async () => {
    const { handle } = await serve(createEverythingServer());
    const a = await rawSession(handle.url);
    const call = await fetch(handle.url, {
      method: "POST",
      headers: a,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "test_tool_with_progress", arguments: {}, _meta: { progressToken: "secret" } },
      }),
    });
    expect(call.headers.get("content-type")).toBe("text/event-stream");
    const firstId = parseSse(await call.text())[0]!.id!;
    expect(firstId).toMatch(new RegExp(`^${a["mcp-session-id"]}-\\d+:0$`));

    const b = await rawSession(handle.url);
    // The server ends a resumed stream once it has replayed it: read to its end, it brought nothing.
    const resumed = { ...b, "last-event-id": firstId };
    expect(await getMessages(handle.url, resumed, { what: "the resumed stream's end" })).toEqual([]);
  });
});

describe("idle sessions", () => {
  // `sessionIdleTimeout` counts from the last activity: a request still being answered keeps the session.
  it("keeps a session whose request is still being answered", async () => {
    // The call lasts until the sweeper has looked at the session past its idle time (a cutoff later
    // than the call's start), whatever the machine's pace: no sleep to guess at.
    const sweeps = vi.spyOn(OpenSessions.prototype as unknown as { sweep(cutoff: number): void }, "sweep");
    const server = new McpServer({ name: "slow", version: "1.0.0" }).tool(
      "slow",
      { description: "Answers once a sweep would have ended an idle session" },
      async () => {
        const started = Date.now();
        const swept = () => sweeps.mock.calls.some(([cutoff]) => cutoff > started);
        await until(swept, { what: "a sweep past the session's idle time" });
        return "slow done";
      },
    );
    // Idle longer than the gaps between the client's first requests on a loaded machine.
    const { handle } = await serve(server, { sessionIdleTimeout: 2000 });
    const client = new ClientV1(CLIENT_INFO);
    clients.push(client);
    try {
      await client.connect(new HttpV1(new URL(handle.url)));
      const result = await client.callTool({ name: "slow" }, undefined, { timeout: 30_000 });
      expect(result.content).toEqual([{ type: "text", text: "slow done" }]);
    } finally {
      sweeps.mockRestore();
    }
  });
});
