/**
 * A stdio upstream's result over the proxy's `maxResultSize` is refused as it arrives: the line is
 * skipped unread (never parsed), its caller gets an error naming the option, and the upstream's
 * later messages, even those in the same chunk as the end of the skipped line, still arrive.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { ErrorCode, McpError } from "../../src/jsonrpc/errors.js";
import { createProxyServer } from "../../src/proxy/index.js";
import { McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory/pair.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
});

/**
 * A stdio server whose `big` result is `size` characters of text, its `id` last (as the official
 * SDK v1 writes a response) and written in two halves: the second only when the next call comes,
 * in the same write as that call's answer. `big_first` writes its `id` first, in one go.
 */
const UPSTREAM = `
import { createInterface } from "node:readline";
const size = Number(process.argv[2]);
const write = (text) => process.stdout.write(text);
const line = (message) => JSON.stringify(message) + "\\n";
const text = (id, text) => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });
const tool = (name) => ({ name, inputSchema: { type: "object", properties: {} } });
let rest = "";
createInterface({ input: process.stdin }).on("line", (raw) => {
  const message = JSON.parse(raw);
  const { id, method, params } = message;
  if (method === "initialize") {
    write(line({ jsonrpc: "2.0", id, result: {
      protocolVersion: params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: "big-up", version: "1" },
    } }));
  } else if (method === "tools/list") {
    write(line({ jsonrpc: "2.0", id, result: { tools: [tool("big"), tool("big_first"), tool("small")] } }));
  } else if (method === "tools/call" && params.name === "big") {
    const whole = '{"result":{"content":[{"type":"text","text":"' + "x".repeat(size) + '"}]},"jsonrpc":"2.0","id":' + JSON.stringify(id) + "}\\n";
    write(whole.slice(0, whole.length >> 1));
    rest = whole.slice(whole.length >> 1);
    console.error("half of big written");
  } else if (method === "tools/call" && params.name === "big_first") {
    write(line(text(id, "y".repeat(size))));
  } else if (method === "tools/call") {
    write(rest + line(text(id, "small")));
    rest = "";
  } else if (id !== undefined && method !== undefined) {
    write(line({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } }));
  }
});
`;

const KiB = 1024;

/** Measures every JSON.parse of this process, where the proxy runs; returns the longest text's length. */
function measureParses(): () => number {
  const parse = JSON.parse;
  let longest = 0;
  vi.spyOn(JSON, "parse").mockImplementation((text: string, reviver?: Parameters<typeof parse>[1]) => {
    if (typeof text === "string" && text.length > longest) longest = text.length;
    return parse(text, reviver);
  });
  cleanups.push(() => vi.restoreAllMocks());
  return () => longest;
}

async function connectTo(proxy: Awaited<ReturnType<typeof createProxyServer>>): Promise<McpClient> {
  cleanups.push(() => proxy.close());
  const [serverSide, clientSide] = createMemoryTransportPair();
  await proxy.connect(serverSide);
  const client = await McpClient.connect({ transport: clientSide, protocolVersion: "2025-11-25" });
  cleanups.push(() => client.close());
  return client;
}

describe("a result over maxResultSize from a stdio upstream", () => {
  it("is refused unread, its caller told why, while other calls and later messages go through", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpkit-oversize-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const script = join(dir, "upstream.mjs");
    writeFileSync(script, UPSTREAM);

    // An oversize line the proxy parsed (as it did before: whole, then measured and refused) would show.
    const longest = measureParses();

    const size = 2 * 1024 * KiB;
    const maxResultSize = 256 * KiB;
    let halfWritten!: () => void;
    const bigStarted = new Promise<void>((resolve) => {
      halfWritten = resolve;
    });
    const proxy = await createProxyServer({
      upstream: { command: process.execPath, args: [script, String(size)] },
      maxResultSize,
      tasks: false,
      onStderr: (_server, line) => {
        if (line.includes("half of big written")) halfWritten();
      },
    });
    const client = await connectTo(proxy);

    // The big answer is under way (half of it written) when the small call goes out; the small
    // answer follows the big one's end in the same write.
    const big = client.callTool("big").catch((error: unknown) => error);
    await bigStarted;
    const small = await client.callTool("small");
    expect(small.text()).toBe("small");

    const refused = await big;
    // Nothing of that size was ever parsed: the line was dropped while being framed.
    expect(longest()).toBeGreaterThan(0);
    expect(longest()).toBeLessThan(maxResultSize);
    expect(refused).toBeInstanceOf(McpError);
    const error = refused as McpError;
    expect(error.code).toBe(ErrorCode.InternalError);
    expect(error.message).toMatch(
      /^The result of big-up\/big is more than the proxy passes on \(maxResultSize 262144\): its response is \d+ bytes, refused unread; a larger maxResultSize lets it through$/,
    );
    expect((error.data as { size: number }).size).toBeGreaterThan(size);
    expect(error.data).toMatchObject({ maxResultSize });

    // The upstream is still usable, and a response with its id first is found and refused too.
    expect((await client.callTool("small")).text()).toBe("small");
    const first = await client.callTool("big_first").catch((e: unknown) => e);
    expect(first).toBeInstanceOf(McpError);
    expect((first as McpError).message).toMatch(
      /^The result of big-up\/big_first is more than the proxy passes on/,
    );
    expect((await client.callTool("small")).text()).toBe("small");
    expect(longest()).toBeLessThan(maxResultSize);
  });

  it("from an HTTP upstream is refused unread too, and the upstream stays usable", async () => {
    const longest = measureParses();
    const size = 2 * 1024 * KiB;
    const maxResultSize = 256 * KiB;
    const upstream = new McpServer({ name: "http-up", version: "1" })
      .tool("big", {}, () => "x".repeat(size))
      .tool("small", {}, () => "small");
    const http = await upstream.serveHttp({ port: 0 });
    cleanups.push(
      () => upstream.close(),
      () => http.close(),
    );
    const client = await connectTo(
      await createProxyServer({ upstream: { url: http.url }, maxResultSize, tasks: false }),
    );

    const [big, small] = await Promise.all([
      client.callTool("big").catch((error: unknown) => error),
      client.callTool("small"),
    ]);
    expect(small.text()).toBe("small");
    expect(longest()).toBeLessThan(maxResultSize);
    expect(big).toBeInstanceOf(McpError);
    expect((big as McpError).message).toMatch(
      /^The result of http-up\/big is more than the proxy passes on \(maxResultSize 262144\): its response is \d+ bytes, refused unread; a larger maxResultSize lets it through$/,
    );
    expect((await client.callTool("small")).text()).toBe("small");
  });
});
