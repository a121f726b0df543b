/**
 * An upstream's sampling, elicitation and roots requests through the proxy, to its caller, in both
 * eras on either side: server-everything (a real process over stdio, 2025-11-25) and an mcpkit
 * upstream over HTTP pinned to each era; the caller an McpClient in a 2025-11-25 session or
 * stateless (2026-07-28), where the upstream's questions become `inputRequests` of the caller's
 * request and its next rounds continue the same upstream call.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import type { ProtocolVersion } from "../../src/protocol/revisions/index.js";
import type { ElicitResult } from "../../src/protocol/types/client-features.js";
import { createProxyServer, type ProxyOptions } from "../../src/proxy/index.js";
import { McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory/index.js";

import { until } from "../helpers/until.js";

const EVERYTHING = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);
const SLOW = 120_000;
const REPLY = { role: "assistant", content: { type: "text", text: "Paris" }, model: "test-model" } as const;
const ROOTS = [{ uri: "file:///work/project", name: "project" }];

let cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  cleanups = [];
});

interface Asked {
  elicitation: string[];
  sampling: number;
  roots: number;
}

/** The proxy, and a client of it in memory with elicitation, sampling and roots of its own. */
async function front(
  options: ProxyOptions,
  protocolVersion: ProtocolVersion,
  answer: (message: string) => ElicitResult = () => ({ action: "accept", content: { name: "Ada" } }),
): Promise<{ client: McpClient; asked: Asked }> {
  const proxy = await createProxyServer(options);
  cleanups.push(() => proxy.close());
  const [serverSide, clientSide] = createMemoryTransportPair();
  await proxy.connect(serverSide);
  const asked: Asked = { elicitation: [], sampling: 0, roots: 0 };
  const client = await McpClient.connect({
    transport: clientSide,
    protocolVersion,
    elicitation: (params) => {
      asked.elicitation.push(params.message);
      return answer(params.message);
    },
    sampling: () => {
      asked.sampling++;
      return REPLY;
    },
    roots: () => {
      asked.roots++;
      return ROOTS;
    },
  });
  cleanups.push(() => client.close());
  return { client, asked };
}

const ERAS: ProtocolVersion[] = ["2025-11-25", "2026-07-28"];

describe.each(ERAS)("server-everything (stdio) through the proxy, the caller at %s", (version) => {
  it(
    "its elicitation and sampling tools are listed and reach the caller",
    async () => {
      const { client, asked } = await front(
        { upstream: { command: process.execPath, args: [EVERYTHING, "stdio"] } },
        version,
      );
      // server-everything adds these once its client said initialized: the proxy follows that list change.
      const wanted = ["trigger-elicitation-request", "trigger-sampling-request"];
      const listed = async () => {
        const names = (await client.listTools()).map((tool) => tool.name);
        return wanted.every((name) => names.includes(name));
      };
      await until(listed, { what: `the proxy to list ${wanted.join(" and ")}`, intervalMs: 100 });

      const elicited = await client.callTool("trigger-elicitation-request", {});
      expect(elicited.isError).not.toBe(true);
      expect(elicited.text()).toContain("- Name: Ada");
      expect(asked.elicitation).toEqual(["Please provide inputs for the following fields:"]);

      const sampled = await client.callTool("trigger-sampling-request", { prompt: "Capital of France?" });
      expect(sampled.isError).not.toBe(true);
      expect(sampled.text()).toContain("Paris");
      expect(asked.sampling).toBe(1);
    },
    SLOW,
  );
});

/** An mcpkit upstream over HTTP whose tools ask their client, counting the calls that began. */
async function askingUpstream(): Promise<{ url: string; began: () => number }> {
  let began = 0;
  const server = new McpServer({ name: "asker", version: "1.0.0" })
    .tool("two_questions", { description: "Asks twice, then samples" }, async (_args, ctx) => {
      began++;
      ctx.log("info", "asking", "asker");
      const first = await ctx.elicit({
        message: "First?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } } },
      });
      const second = await ctx.elicit({
        message: "Second?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } } },
      });
      const sampled = await ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: "hi" } }],
        maxTokens: 5,
      });
      return `${first.action} ${second.action} ${(sampled.content as { text: string }).text}`;
    })
    .tool("roots", { description: "Lists the client's roots" }, async (_args, ctx) => {
      const roots = await ctx.listRoots();
      return roots.map((root) => root.uri).join(",");
    });
  const http = await server.serveHttp({ port: 0 });
  cleanups.push(
    () => http.close(),
    () => server.close(),
  );
  // Stateless upstream calls run once per round: count only the first round of each call.
  return { url: http.url, began: () => began };
}

describe.each(ERAS)("an mcpkit upstream at %s through the proxy", (upstreamVersion) => {
  describe.each(ERAS)("the caller at %s", (callerVersion) => {
    it("answers several questions of one call, and the upstream call is made once per caller call", async () => {
      const upstream = await askingUpstream();
      const { client, asked } = await front(
        { upstream: { url: upstream.url }, clientOptions: { protocolVersion: upstreamVersion } },
        callerVersion,
      );
      const logs: unknown[] = [];
      client.on("log", (entry) => logs.push(entry));
      await client.setLoggingLevel("info");
      const result = await client.callTool("two_questions", {});
      expect(result.text()).toBe("accept accept Paris");
      expect(asked.elicitation).toEqual(["First?", "Second?"]);
      expect(asked.sampling).toBe(1);
      // A session upstream runs the call once; a stateless one runs its handler once per round of its own.
      expect(upstream.began()).toBe(upstreamVersion === "2025-11-25" ? 1 : 4);
      await until(() => logs.length > 0, { what: "a log message to reach the client" });
      expect(logs[0]).toMatchObject({ level: "info", data: "asking" });
    });

    it("forwards roots/list to the caller", async () => {
      const upstream = await askingUpstream();
      const { client, asked } = await front(
        { upstream: { url: upstream.url }, clientOptions: { protocolVersion: upstreamVersion } },
        callerVersion,
      );
      expect((await client.callTool("roots", {})).text()).toBe("file:///work/project");
      expect(asked.roots).toBe(1);
    });
  });
});

describe("a stateless caller whose call ends while it answers a question", () => {
  it("gets the call's result in its next round", async () => {
    // A session upstream's roots/list names no call: the proxy asks the caller of the one in flight.
    // Here the upstream asks it on the side and ends its call without waiting for the answer, so the
    // call ends after the caller was asked and before its next round comes.
    let rootsAsked!: () => void;
    const asking = new Promise<void>((resolve) => {
      rootsAsked = resolve;
    });
    let rootsSettled!: () => void;
    const settled = new Promise<void>((resolve) => {
      rootsSettled = resolve;
    });
    const server = new McpServer({ name: "asker", version: "1.0.0" }).tool(
      "sample_then_roots",
      { description: "Samples, asks roots on the side, returns" },
      async (_args, ctx) => {
        const sampled = await ctx.sample({
          messages: [{ role: "user", content: { type: "text", text: "hi" } }],
          maxTokens: 5,
        });
        ctx.listRoots().then(rootsSettled, rootsSettled);
        await asking;
        return (sampled.content as { text: string }).text;
      },
    );
    const http = await server.serveHttp({ port: 0 });
    cleanups.push(
      () => http.close(),
      () => server.close(),
    );
    const proxy = await createProxyServer({
      upstream: { url: http.url },
      clientOptions: { protocolVersion: "2025-11-25" },
    });
    cleanups.push(() => proxy.close());
    const [serverSide, clientSide] = createMemoryTransportPair();
    await proxy.connect(serverSide);
    const client = await McpClient.connect({
      transport: clientSide,
      protocolVersion: "2026-07-28",
      sampling: () => REPLY,
      roots: async () => {
        rootsAsked();
        // The upstream hears its roots/list fail once the proxy ended the call: answer only then.
        await settled;
        return ROOTS;
      },
    });
    cleanups.push(() => client.close());
    expect((await client.callTool("sample_then_roots", {})).text()).toBe("Paris");
  });
});

describe("a caller that cannot answer", () => {
  it("gets the upstream an error, and the call fails for that caller only", async () => {
    const upstream = await askingUpstream();
    const proxy = await createProxyServer({ upstream: { url: upstream.url } });
    cleanups.push(() => proxy.close());
    const [serverSide, clientSide] = createMemoryTransportPair();
    await proxy.connect(serverSide);
    const client = await McpClient.connect({ transport: clientSide, protocolVersion: "2025-11-25" });
    cleanups.push(() => client.close());
    const result = await client.callTool("roots", {}).catch((error: Error) => error);
    const text = result instanceof Error ? result.message : result.text();
    expect(text).toMatch(/roots/);
  });
});
