import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ErrorCode, McpError } from "../../src/jsonrpc/errors.js";
import type { JSONRPCMessage } from "../../src/jsonrpc/messages.js";
import { Peer } from "../../src/protocol/engine/peer.js";
import type { Transport, TransportHandlers } from "../../src/protocol/transport.js";
import { createMemoryTransportPair } from "../../src/transports/memory/pair.js";

/** A promise with its resolve function, for a test to await an event it names. */
function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Sleeps on the (fake) clock, for a handler whose pace is the subject of the test. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let open: Peer[] = [];
afterEach(async () => {
  await Promise.all(open.map((p) => p.close()));
  open = [];
});

async function pair(options: { timeout?: number } = {}) {
  const [a, b] = createMemoryTransportPair();
  const seenByB: JSONRPCMessage[] = [];
  const left = new Peer(a, { requestTimeout: options.timeout });
  const right = new Peer(b, { trace: (direction, m) => direction === "receive" && seenByB.push(m) });
  await Promise.all([left.start(), right.start()]);
  open.push(left, right);
  return { left, right, seenByB };
}

describe("Peer", () => {
  it("matches 1,000 concurrent requests to their own responses, out of order", async () => {
    const { left, right } = await pair();
    // Every request is held until all have arrived, then they are answered in reverse order.
    const held: (() => void)[] = [];
    right.setRequestHandler("echo", async (params) => {
      await new Promise<void>((resolve) => {
        held.push(resolve);
        if (held.length === 1000) for (const answer of held.reverse()) answer();
      });
      return { n: params.n };
    });
    const results = await Promise.all(Array.from({ length: 1000 }, (_, n) => left.request("echo", { n })));
    expect(results.map((r) => r.n)).toEqual(Array.from({ length: 1000 }, (_, n) => n));
  });

  it("delivers notifications interleaved with requests, and answers ping both ways", async () => {
    const { left, right } = await pair();
    const got: unknown[] = [];
    const allHeard = signal();
    right.setNotificationHandler("notifications/x", (params) => {
      if (got.push(params.i) === 5) allHeard.resolve();
    });
    // The request stays in flight until every notification sent after it has been heard.
    right.setRequestHandler("slow", async () => {
      await allHeard.promise;
      return { done: true };
    });
    const slow = left.request("slow");
    for (let i = 0; i < 5; i++) left.notify("notifications/x", { i });
    expect(await slow).toEqual({ done: true });
    expect(got).toEqual([0, 1, 2, 3, 4]);
    expect(await left.request("ping")).toEqual({});
    expect(await right.request("ping")).toEqual({});
  });

  it("answers an unknown method with -32601 and a failing handler with its error", async () => {
    const { left, right } = await pair();
    right.setRequestHandler("boom", () => {
      throw new Error("kaput");
    });
    right.setRequestHandler("typed", () => {
      throw new McpError(ErrorCode.InvalidParams, "bad x", { field: "x" });
    });
    await expect(left.request("nope")).rejects.toMatchObject({
      code: -32601,
      message: "Method not found: nope",
    });
    await expect(left.request("boom")).rejects.toMatchObject({ code: -32603, message: "kaput" });
    await expect(left.request("typed")).rejects.toMatchObject({ code: -32602, data: { field: "x" } });
  });

  it("times out with a clear error and cancels the request on the other side", async () => {
    const { left, right, seenByB } = await pair();
    const aborted = signal<unknown>();
    right.setRequestHandler("hang", (_params, request) => {
      return new Promise((_resolve, reject) => {
        request.signal.addEventListener("abort", () => {
          aborted.resolve(request.signal.reason);
          reject(request.signal.reason);
        });
      });
    });
    const error = await left.request("hang", {}, { timeout: 50 }).catch((e) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(ErrorCode.RequestTimeout);
    expect(error.message).toBe("Request hang timed out after 50 ms");
    // The handler is aborted when the cancellation arrives (and only then).
    expect(String(await aborted.promise)).toContain("cancelled");
    expect(seenByB.some((m) => "method" in m && m.method === "notifications/cancelled")).toBe(true);
    // No response is sent for a cancelled request, and the connection goes on.
    right.setRequestHandler("ok", () => ({ fine: 1 }));
    expect(await left.request("ok")).toEqual({ fine: 1 });
  });

  it("times out a short request sent after long ones first, and each at its own deadline", async () => {
    const { left, right } = await pair({ timeout: 60_000 });
    right.setRequestHandler("hang", () => new Promise(() => {}));
    const settled: string[] = [];
    const track = (name: string, timeout?: number) =>
      left
        .request("hang", {}, timeout === undefined ? {} : { timeout })
        .catch((e: McpError) => settled.push(`${name}: ${e.message}`));
    void track("long");
    // Far apart, so a loaded machine that stalls between the two sends cannot swap them.
    const short = track("short", 400);
    const shorter = track("shorter", 20);
    // A timeout past what setTimeout can hold does not fire at once: had it, it would have been
    // settled before both below (its timer would expire first, and timers run in expiry order).
    void track("infinite", Number.POSITIVE_INFINITY);
    await Promise.all([short, shorter]);
    expect(settled).toEqual([
      "shorter: Request hang timed out after 20 ms",
      "short: Request hang timed out after 400 ms",
    ]);
  });

  it("lets the process exit once no request is in flight (its timeouts hold it open only meanwhile)", () => {
    // Runs the built package (npm test builds first), as a user's script would.
    const script = `
      import { Peer } from "mcpkit/protocol";
      import { createMemoryTransportPair } from "mcpkit/transports/memory";
      const [a, b] = createMemoryTransportPair();
      const left = new Peer(a), right = new Peer(b);
      right.setRequestHandler("later", () => new Promise((r) => setTimeout(() => r({ ok: 1 }), 50)));
      await left.start(); await right.start();
      console.log(JSON.stringify(await left.request("later")));
    `;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(run.stdout.trim()).toBe('{"ok":1}');
    expect(run.status).toBe(0);
  });

  it("cancels through an AbortSignal: rejects with its reason and notifies the other side", async () => {
    const { left, right, seenByB } = await pair();
    const handling = signal<AbortSignal>();
    right.setRequestHandler("hang", (_p, request) => {
      handling.resolve(request.signal);
      return new Promise(() => {});
    });
    const controller = new AbortController();
    const pending = left.request("hang", {}, { signal: controller.signal });
    const handlerSignal = await handling.promise;
    controller.abort(new Error("user gave up"));
    await expect(pending).rejects.toThrow("user gave up");
    // The other side aborts its handler when the cancellation arrives.
    if (!handlerSignal.aborted)
      await new Promise((resolve) => handlerSignal.addEventListener("abort", resolve));
    const cancel = seenByB.find((m) => "method" in m && m.method === "notifications/cancelled");
    expect(cancel).toMatchObject({ params: { requestId: 1, reason: "user gave up" } });
    await expect(
      left.request("hang", {}, { signal: AbortSignal.abort(new Error("already")) }),
    ).rejects.toThrow("already");
  });

  // Time is the subject of the next two: on fake timers, a loaded machine cannot stretch a step past a timeout.
  it("reports progress and, when asked, keeps a long request alive while progress flows", async () => {
    vi.useFakeTimers();
    try {
      const { left, right } = await pair();
      right.setRequestHandler("work", async (_p, request) => {
        for (let i = 1; i <= 12; i++) {
          await sleep(300);
          request.progress(i, 12, `step ${i}`);
        }
        return { ok: true };
      });
      const updates: unknown[] = [];
      const working = left.request(
        "work",
        {},
        { timeout: 400, resetTimeoutOnProgress: true, onProgress: (p) => updates.push(p) },
      );
      // 3600 ms in all, never 400 ms without progress.
      await vi.advanceTimersByTimeAsync(12 * 300);
      expect(await working).toEqual({ ok: true });
      expect(updates).toHaveLength(12);
      expect(updates[11]).toEqual({ progress: 12, total: 12, message: "step 12" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("stops at maxTotalTimeout even while progress flows", async () => {
    vi.useFakeTimers();
    try {
      const { left, right } = await pair();
      right.setRequestHandler("forever", async (_p, request) => {
        while (!request.cancelled) {
          await sleep(30);
          request.progress(1);
        }
        return {};
      });
      let outcome: unknown;
      void left
        .request(
          "forever",
          {},
          { timeout: 300, resetTimeoutOnProgress: true, maxTotalTimeout: 500, onProgress: () => {} },
        )
        .then(
          () => (outcome = "answered"),
          (error) => (outcome = error),
        );
      await vi.advanceTimersByTimeAsync(499);
      expect(outcome).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(outcome).toMatchObject({
        code: ErrorCode.RequestTimeout,
        message: expect.stringContaining("maximum total time of 500 ms"),
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers a malformed message with -32600 and keeps working", async () => {
    let handlers!: TransportHandlers;
    const sent: JSONRPCMessage[] = [];
    const transport: Transport = {
      start: async (h) => {
        handlers = h;
      },
      send: (m) => void sent.push(m),
      close: async () => handlers.onclose(),
    };
    const peer = new Peer(transport);
    await peer.start();
    handlers.onmessage({ jsonrpc: "2.0", id: 7, method: 42 });
    handlers.onmessage({ jsonrpc: "2.0", id: 8, method: "ping" });
    expect(sent[0]).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32600, message: 'Invalid request: the "method" member must be a string' },
    });
    expect(sent[1]).toEqual({ jsonrpc: "2.0", id: 8, result: {} });
    await peer.close();
  });

  it("rejects pending requests when the connection closes, and later ones at once", async () => {
    const { left, right } = await pair();
    const handling = signal();
    right.setRequestHandler("hang", () => {
      handling.resolve();
      return new Promise(() => {});
    });
    const pending = left.request("hang");
    await handling.promise;
    await right.close();
    await expect(pending).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed });
    await expect(left.request("ping")).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed });
  });
});
