/**
 * Stateless (2026-07-28) requests over Streamable HTTP, as raw POSTs: every such request of an
 * endpoint is served on one transport, so clients whose request ids collide must each get their own
 * answer, a listen stream must be named by the id its client gave it, and hanging up must cancel
 * that request and no other.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpServer } from "../../src/server/server.js";
import type { HttpServerHandle } from "../../src/transports/http/server/listen.js";

/** vi.waitFor's own default (1 s) is too short for a loaded machine: a bound, never a timing assertion. */
const WAIT = { timeout: 20_000, interval: 10 };
const VERSION = "2026-07-28";
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
const META = {
  "io.modelcontextprotocol/protocolVersion": VERSION,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

type Message = Record<string, any>;

let handle: HttpServerHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

/** A server whose `wait` tool holds each call (by tag) until released or cancelled. */
async function start(options: { responseMode?: "auto" | "json" | "sse" } = {}) {
  const held = new Map<string, { release: () => void; signal: AbortSignal }>();
  const cancelled: string[] = [];
  const server = new McpServer({ name: "stateless", version: "1" }).tool(
    "wait",
    { input: { type: "object", properties: { tag: { type: "string" } }, required: ["tag"] } },
    ({ tag }, ctx) =>
      new Promise<string>((resolve) => {
        ctx.signal.addEventListener("abort", () => cancelled.push(tag));
        held.set(tag, { release: () => resolve(`done ${tag}`), signal: ctx.signal });
      }),
  );
  server.tool("steps", {}, (_args, ctx) => {
    ctx.progress(1, 2);
    ctx.progress(2, 2);
    return "stepped";
  });
  handle = await server.serveHttp({ responseMode: options.responseMode });
  const url = handle.url;
  const post = (message: Message, signal?: AbortSignal) =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": VERSION,
        "mcp-method": message.method,
        ...(message.method === "tools/call" ? { "mcp-name": message.params.name } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", ...message }),
      signal,
    });
  const call = (id: number | string, tag: string, signal?: AbortSignal) =>
    post({ id, method: "tools/call", params: { name: "wait", arguments: { tag }, _meta: META } }, signal);
  const holding = (...tags: string[]) =>
    vi.waitFor(() => expect([...held.keys()]).toEqual(expect.arrayContaining(tags)), WAIT);
  return { server, held, cancelled, post, call, holding };
}

/** Reads the messages of an event stream response, `count` at a time. */
function eventsOf(response: Response): (count: number) => Promise<Message[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  return async (count) => {
    const messages: Message[] = [];
    while (messages.length < count) {
      const end = text.indexOf("\n\n");
      if (end === -1) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
        continue;
      }
      const data = text
        .slice(0, end)
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
        .join("\n");
      if (data) messages.push(JSON.parse(data));
      text = text.slice(end + 2);
    }
    return messages;
  };
}

describe("Streamable HTTP server: stateless requests on one transport", () => {
  it("answers clients whose request ids collide, each with its own result under its own id", async () => {
    const { held, call, holding } = await start();
    const a = call(7, "a");
    const b = call(7, "b");
    await holding("a", "b");
    held.get("b")!.release();
    held.get("a")!.release();
    const [first, second] = await Promise.all([(await a).json(), (await b).json()]);
    expect(first).toMatchObject({ id: 7, result: { content: [{ type: "text", text: "done a" }] } });
    expect(second).toMatchObject({ id: 7, result: { content: [{ type: "text", text: "done b" }] } });
  });

  it("names a listen stream by the id its client gave the listen request", async () => {
    const { server, held, call, post, holding } = await start();
    // Another client's requests come first, so the server's own count is ahead of this client's.
    const others = [call(1, "x"), call(2, "y")];
    await holding("x", "y");
    const controller = new AbortController();
    const listen = await post(
      {
        id: "sub-1",
        method: "subscriptions/listen",
        params: { notifications: { toolsListChanged: true }, _meta: META },
      },
      controller.signal,
    );
    expect(listen.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const next = eventsOf(listen);
    expect((await next(1))[0]).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { [SUBSCRIPTION_ID]: "sub-1" } },
    });
    server.tool("late", {}, () => "late");
    expect((await next(1))[0]).toMatchObject({
      method: "notifications/tools/list_changed",
      params: { _meta: { [SUBSCRIPTION_ID]: "sub-1" } },
    });
    controller.abort();
    for (const tag of ["x", "y"]) held.get(tag)!.release();
    await Promise.all(others);
  });

  it("cancels a request whose client hangs up, and no other", async () => {
    const { held, cancelled, call, holding } = await start();
    const controller = new AbortController();
    const gone = call(1, "gone", controller.signal).catch((error: Error) => error);
    const stays = call(1, "stays");
    await holding("gone", "stays");
    controller.abort();
    await gone;
    await vi.waitFor(() => expect(cancelled).toEqual(["gone"]), WAIT);
    expect(held.get("gone")!.signal.aborted).toBe(true);
    held.get("stays")!.release();
    expect(await (await stays).json()).toMatchObject({
      id: 1,
      result: { content: [{ text: "done stays" }] },
    });
    expect(cancelled).toEqual(["gone"]);
  });

  it("ignores notifications/cancelled: statelessly it could only name someone else's request", async () => {
    const { held, cancelled, call, post, holding } = await start();
    const pending = call(1, "mine");
    await holding("mine");
    for (let requestId = 0; requestId <= 5; requestId++) {
      const response = await post({ method: "notifications/cancelled", params: { requestId, _meta: META } });
      expect(response.status).toBe(202);
    }
    held.get("mine")!.release();
    expect(await (await pending).json()).toMatchObject({
      id: 1,
      result: { content: [{ text: "done mine" }] },
    });
    expect(cancelled).toEqual([]);
  });

  it("answers as an event stream when progress comes first, and as plain JSON with responseMode json", async () => {
    for (const [responseMode, type] of [
      ["auto", "text/event-stream"],
      ["json", "application/json"],
    ] as const) {
      const { post } = await start({ responseMode });
      const response = await post({
        id: 1,
        method: "tools/call",
        params: { name: "steps", arguments: {}, _meta: { ...META, progressToken: "p" } },
      });
      expect(response.headers.get("content-type")).toMatch(new RegExp(`^${type}`));
      const text = await response.text();
      expect(text).toContain('"stepped"');
      expect(text.includes("notifications/progress")).toBe(responseMode === "auto");
      await handle?.close();
      handle = undefined;
    }
  });
});
