/**
 * What the proxy lets through from an upstream: results over `maxResultSize` are refused, error
 * `data` is cut to a bounded size, and each upstream has its own concurrency gate, so a hung one
 * neither takes every slot nor slows another upstream's calls; a call its caller cancels while it
 * waits for the gate leaves the queue and never reaches the upstream.
 */
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { ErrorCode, McpError } from "../../src/jsonrpc/errors.js";
import { createProxyServer, type ProxyOptions } from "../../src/proxy/index.js";
import { McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory/pair.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

/** An upstream over HTTP whose `hang` calls wait until released. */
async function upstream(name: string) {
  const hanging: (() => void)[] = [];
  let calls = 0;
  const server = new McpServer({ name, version: "1" })
    .tool("big", {}, () => "x".repeat(2 * 1024 * 1024))
    // Over 1 MiB, but by less than a response may add to its result: parsed, then measured.
    .tool("just_over", {}, () => "x".repeat(1024 * 1024 + 1000))
    .tool("html_error", {}, () => {
      throw new McpError(
        ErrorCode.InternalError,
        "upstream exploded",
        `<html>${"<p>oops</p>".repeat(100_000)}</html>`,
      );
    })
    .tool("hang", {}, () => {
      calls++;
      return new Promise<string>((resolve) => hanging.push(() => resolve("released")));
    })
    .tool("fast", {}, () => "fast");
  const http = await server.serveHttp({ port: 0 });
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  const release = () => {
    for (const go of hanging.splice(0)) go();
  };
  return { url: http.url, release, calls: () => calls };
}

async function connect(options: ProxyOptions) {
  const proxy = await createProxyServer(options);
  cleanups.push(() => proxy.close());
  const [serverSide, clientSide] = createMemoryTransportPair();
  await proxy.connect(serverSide);
  const client = await McpClient.connect({ transport: clientSide, protocolVersion: "2025-11-25" });
  cleanups.push(() => client.close());
  return client;
}

describe("the proxy's limits on upstreams", () => {
  it("refuses a result over maxResultSize and cuts an error's data, then still forwards", async () => {
    const up = await upstream("up");
    const client = await connect({ upstream: { url: up.url }, maxResultSize: 1024 * 1024 });
    const big = await client.callTool("big").catch((e) => e);
    expect(big).toBeInstanceOf(McpError);
    expect(big.message).toMatch(
      /^The result of .*\/big is more than the proxy passes on \(maxResultSize 1048576\): its response is \d+ bytes, refused unread; a larger maxResultSize lets it through$/,
    );
    const over = await client.callTool("just_over").catch((e) => e);
    expect(over).toBeInstanceOf(McpError);
    expect(over.message).toMatch(
      /^The result of .*\/just_over is \d+ bytes, more than the proxy passes on \(maxResultSize 1048576\); a larger maxResultSize lets it through$/,
    );
    const failed = await client.callTool("html_error").catch((e) => e);
    expect(failed.code).toBe(ErrorCode.InternalError);
    expect(failed.message).toBe("upstream exploded");
    expect(failed.data).toMatchObject({ truncated: true, size: 1_100_013 });
    expect(failed.data.excerpt).toHaveLength(4096);
    expect((await client.callTool("fast")).text()).toBe("fast");
  });

  it("gives each upstream its own gate: a hung one fills only its own, and the others answer", async () => {
    const slow = await upstream("slow");
    const quick = await upstream("quick");
    const client = await connect({
      config: { mcpServers: { slow: { url: slow.url }, quick: { url: quick.url } } },
      maxConcurrency: 1,
      maxQueued: 1,
    });
    const tools = (await client.listTools()).map((tool) => tool.name);
    const hang = tools.find((name) => name.startsWith("slow") && name.endsWith("hang"))!;
    const fast = tools.find((name) => name.startsWith("quick") && name.endsWith("fast"))!;
    const first = client.callTool(hang);
    const queued = client.callTool(hang);
    await expect.poll(() => slow.calls()).toBe(1);
    const refused = await client.callTool(hang).catch((e) => e);
    expect(refused.message).toMatch(
      /^Upstream slow is busy: 1 calls in flight and 1 waiting; try again later$/,
    );
    expect((await client.callTool(fast)).text()).toBe("fast");
    slow.release();
    expect((await first).text()).toBe("released");
    await expect.poll(() => slow.calls()).toBe(2);
    slow.release();
    expect((await queued).text()).toBe("released");
  });

  it("lets a caller cancel a call waiting for the gate: it leaves the queue, the upstream never sees it", async () => {
    const slow = await upstream("slow");
    const client = await connect({ upstream: { url: slow.url }, maxConcurrency: 1, maxQueued: 1 });
    const first = client.callTool("hang");
    await expect.poll(() => slow.calls()).toBe(1);
    const controller = new AbortController();
    const queued = client.callTool("hang", {}, { signal: controller.signal }).catch((e) => e);
    // Queued: one more is refused, the queue being full.
    await expect
      .poll(async () => ((await client.callTool("hang").catch((e) => e)) as Error).message)
      .toMatch(/is busy: 1 calls in flight and 1 waiting/);
    controller.abort(new Error("not wanted any more"));
    expect(await queued).toBeInstanceOf(Error);
    // Its place in the queue is free again, and what waits there runs once the first ends.
    const next = client.callTool("hang");
    slow.release();
    expect((await first).text()).toBe("released");
    await expect.poll(() => slow.calls()).toBe(2);
    slow.release();
    expect((await next).text()).toBe("released");
    expect(slow.calls()).toBe(2);
  });
});
