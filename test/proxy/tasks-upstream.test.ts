/**
 * `createProxyServer` in front of `mcpkit serve everything --http`, its upstream client pinned to
 * each era: the proxy follows a 2025-11-25 session's tasks (their questions come as requests
 * naming the upstream task, several at once) and a stateless upstream's (questions as input
 * requests of its `tasks/get`), for callers of either era; cancelling reaches the upstream, and
 * the proxy closing cancels what it still follows.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { McpClient } from "../../src/client/index.js";
import type { ProtocolVersion } from "../../src/protocol/revisions/index.js";
import { createProxyServer, type ProxyServer } from "../../src/proxy/index.js";
import { CLI } from "./helpers.js";
import { type Recorder, recordTo, type ServeProcess, serveEverything } from "./task-helpers.js";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let upstream: ServeProcess;
beforeAll(async () => {
  upstream = await serveEverything();
});
afterAll(() => upstream?.stop());

const ERAS: ProtocolVersion[] = ["2025-11-25", "2026-07-28"];

describe.each(ERAS)("an upstream at %s", (upstreamVersion) => {
  let recorder: Recorder;
  let proxy: ProxyServer;
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    recorder = await recordTo(upstream.url);
    proxy = await createProxyServer({
      upstream: { url: recorder.url },
      clientOptions: { protocolVersion: upstreamVersion },
      tasks: { pollInterval: 100 },
    });
    const http = await proxy.serveHttp({ port: 0 });
    url = http.url;
    close = () => http.close();
  });
  afterAll(async () => {
    await close?.();
    await proxy?.close();
    await recorder?.close();
  });

  it("is spoken to in its era", () => {
    const methods = recorder.sent.map((sent) => sent.method);
    expect(methods.includes("initialize")).toBe(upstreamVersion === "2025-11-25");
  });

  it.each(ERAS)("answers two tasks' questions at once for a caller at %s", async (protocolVersion) => {
    const client = await McpClient.connect({
      url,
      protocolVersion,
      elicitation: (params) => ({
        action: "accept",
        content: { confirm: String(params.message).includes("keep") === false },
      }),
    });
    try {
      const [deleted, kept] = await Promise.all([
        client.callTool("confirm_delete", { filename: "a.txt" }, { task: true }),
        client.callTool("confirm_delete", { filename: "keep.txt" }, { task: true }),
      ]);
      expect([(await deleted.result()).text(), (await kept.result()).text()]).toEqual([
        "Deleted a.txt",
        "Kept keep.txt",
      ]);
    } finally {
      await client.close();
    }
  });

  it.each(ERAS)("cancels the upstream task for a caller at %s", async (protocolVersion) => {
    const client = await McpClient.connect({ url, protocolVersion });
    const direct = await McpClient.connect({ url: upstream.url, protocolVersion: upstreamVersion });
    try {
      const before = recorder.sent.length;
      const task = await client.callTool("slow_compute", { seconds: 60 }, { task: true });
      let upstreamId: string | undefined;
      await expect
        .poll(() => {
          upstreamId = recorder.sent.slice(before).find((sent) => sent.method === "tasks/get")?.params
            ?.taskId as string | undefined;
          return upstreamId;
        })
        .toBeDefined();
      await task.cancel();
      await expect
        .poll(async () => (await (await direct.task(upstreamId!)).status()).status)
        .toBe("cancelled");
    } finally {
      await client.close();
      await direct.close();
    }
  });
});

describe("a proxy without tasks", () => {
  it.each([
    [
      "of upstreams that offer none",
      { upstream: { command: process.execPath, args: [CLI, "serve", "calculator"] } },
    ],
    ["told tasks: false", { tasks: false as const }],
  ])("%s declares none and answers inline", async (_, given) => {
    const proxy = await createProxyServer({ upstream: { url: upstream.url }, ...given });
    const http = await proxy.serveHttp({ port: 0 });
    const client = await McpClient.connect({ url: http.url, protocolVersion: "2025-11-25" });
    try {
      expect(client.capabilities.tasks).toBeUndefined();
      expect((await client.listTools()).some((tool) => tool.execution !== undefined)).toBe(false);
      if (!("upstream" in given)) {
        expect((await client.callTool("slow_compute", { seconds: 0, label: "inline" })).text()).toBe(
          "Computed inline in 0 s",
        );
      }
    } finally {
      await client.close();
      await http.close();
      await proxy.close();
    }
  });
});

describe("losing the upstream", () => {
  it("fails the front task that followed its task", async () => {
    const gone = await serveEverything();
    const proxy = await createProxyServer({ upstream: { url: gone.url }, reconnect: false });
    const http = await proxy.serveHttp({ port: 0 });
    const client = await McpClient.connect({ url: http.url, protocolVersion: "2025-11-25" });
    try {
      const task = await client.callTool("slow_compute", { seconds: 60 }, { task: true });
      await gone.stop();
      await expect.poll(async () => (await task.status()).status, { timeout: 30_000 }).toBe("failed");
    } finally {
      await client.close();
      await http.close();
      await proxy.close();
    }
  });
});

describe("the proxy closing", () => {
  it("cancels the upstream tasks it follows", async () => {
    const recorder = await recordTo(upstream.url);
    const proxy = await createProxyServer({ upstream: { url: recorder.url }, tasks: { pollInterval: 100 } });
    const http = await proxy.serveHttp({ port: 0 });
    const client = await McpClient.connect({ url: http.url, protocolVersion: "2026-07-28" });
    const direct = await McpClient.connect({ url: upstream.url, protocolVersion: "2026-07-28" });
    try {
      await client.callTool("slow_compute", { seconds: 60 }, { task: true });
      await expect.poll(() => recorder.taskIds("tasks/get").length).toBeGreaterThan(0);
      const upstreamId = recorder.taskIds("tasks/get")[0]!;
      await client.close();
      await http.close();
      await proxy.close();
      await expect
        .poll(async () => (await (await direct.task(upstreamId)).status()).status)
        .toBe("cancelled");
    } finally {
      await direct.close();
      await recorder.close();
    }
  });
});
