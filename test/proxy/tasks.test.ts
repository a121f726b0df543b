/**
 * Tasks through a real `mcpkit proxy` process in front of `mcpkit serve everything --http`: a
 * tool the upstream runs as a task runs as a task of the proxy, in a 2025-11-25 session and
 * statelessly (2026-07-28), polled to its result (by mcpkit's client, and by the official tasks
 * requester in a 2025-11-25 session); its question reaches the caller; cancelling it
 * cancels the upstream's task; `tasks/list` answers from the proxy. Between the two, a pass-through
 * records what the proxy sends upstream, so the test learns the upstream task's id.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  createTaskSessionFromClient,
  resultFromTaskOutcome,
  toolDeclarationFromMcpTool,
} from "@modelcontextprotocol/ext-tasks/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { McpClient } from "../../src/client/index.js";
import type { ProtocolVersion } from "../../src/protocol/revisions/index.js";
import { type ProxyProcess, startProxy } from "./helpers.js";
import { type Recorder, recordTo, type ServeProcess, serveEverything } from "./task-helpers.js";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let upstream: ServeProcess;
let recorder: Recorder;
let proxy: ProxyProcess;

beforeAll(async () => {
  upstream = await serveEverything();
  recorder = await recordTo(upstream.url);
  proxy = await startProxy(["--port", "0", recorder.url]);
});
afterAll(async () => {
  await proxy?.stop();
  await recorder?.close();
  await upstream?.stop();
});

const ERAS: ProtocolVersion[] = ["2025-11-25", "2026-07-28"];

/** The upstream task the proxy polls for `label` (the first `tasks/get` after `before` requests). */
async function upstreamTaskAfter(before: number): Promise<string> {
  let id: string | undefined;
  await expect
    .poll(() => {
      id = recorder.sent
        .slice(before)
        .find((sent) => sent.method === "tasks/get" && typeof sent.params?.taskId === "string")?.params
        ?.taskId as string | undefined;
      return id;
    })
    .toBeDefined();
  return id!;
}

describe.each(ERAS)("mcpkit's client at %s through mcpkit proxy", (protocolVersion) => {
  it("lists the upstream's taskSupport, runs a task to its result and gets it again by id", async () => {
    const client = await McpClient.connect({ url: proxy.url, protocolVersion });
    try {
      const tools = await client.listTools();
      const support = (name: string) => tools.find((tool) => tool.name === name)?.execution?.taskSupport;
      expect([support("slow_compute"), support("failing_job"), support("greet")]).toEqual([
        "optional",
        "required",
        undefined,
      ]);
      const task = await client.callTool("slow_compute", { seconds: 1, label: "front" }, { task: true });
      expect(task.id).not.toBe("");
      const seen: string[] = [];
      for await (const info of task) seen.push(info.status);
      expect(seen.at(-1)).toBe("completed");
      expect((await task.result()).text()).toBe("Computed front in 1 s");
      const again = await client.task(task.id);
      expect(again.info.status).toBe("completed");
      expect((await again.result()).text()).toBe("Computed front in 1 s");
    } finally {
      await client.close();
    }
  });

  it("cancelling the front task cancels the upstream's", async () => {
    const client = await McpClient.connect({ url: proxy.url, protocolVersion });
    const direct = await McpClient.connect({ url: upstream.url, protocolVersion });
    try {
      const before = recorder.sent.length;
      const task = await client.callTool("slow_compute", { seconds: 60 }, { task: true });
      const upstreamId = await upstreamTaskAfter(before);
      expect(upstreamId).not.toBe(task.id);
      await task.cancel();
      expect((await task.status()).status).toBe("cancelled");
      await expect.poll(() => recorder.taskIds("tasks/cancel")).toContain(upstreamId);
      await expect
        .poll(async () => (await (await direct.task(upstreamId)).status()).status)
        .toBe("cancelled");
    } finally {
      await client.close();
      await direct.close();
    }
  });

  it("a task cancelled upstream ends cancelled on the front", async () => {
    const client = await McpClient.connect({ url: proxy.url, protocolVersion });
    const direct = await McpClient.connect({ url: upstream.url, protocolVersion });
    try {
      const before = recorder.sent.length;
      const task = await client.callTool("slow_compute", { seconds: 60 }, { task: true });
      const upstreamId = await upstreamTaskAfter(before);
      await (await direct.task(upstreamId)).cancel();
      await expect.poll(async () => (await task.status()).status, { timeout: 20_000 }).toBe("cancelled");
      await expect(task.result()).rejects.toThrow();
    } finally {
      await client.close();
      await direct.close();
    }
  });

  it("the upstream's question goes to the caller, and a protocol error fails the front task", async () => {
    const asked: string[] = [];
    const client = await McpClient.connect({
      url: proxy.url,
      protocolVersion,
      elicitation: (params) => {
        asked.push(String(params.message));
        return { action: "accept", content: { confirm: true } };
      },
    });
    try {
      const task = await client.callTool("confirm_delete", { filename: "a.txt" }, { task: true });
      expect((await task.result()).text()).toBe("Deleted a.txt");
      expect(asked).toEqual(["Delete a.txt?"]);
      const failing = await client.callTool("protocol_error_job", {}, { task: true });
      await expect(failing.result()).rejects.toThrow("protocol_error_job hit an internal error");
      expect(failing.info.status).toBe("failed");
    } finally {
      await client.close();
    }
  });
});

describe("mcpkit proxy: listing and older clients", () => {
  it("tasks/list answers from the proxy's tasks, for the session that made them", async () => {
    const client = await McpClient.connect({ url: proxy.url, protocolVersion: "2025-11-25" });
    const other = await McpClient.connect({ url: proxy.url, protocolVersion: "2025-11-25" });
    try {
      const task = await client.callTool("slow_compute", { seconds: 0 }, { task: true });
      await task.result();
      expect((await client.listTasks()).map((info) => info.taskId)).toEqual([task.id]);
      expect(await other.listTasks()).toEqual([]);
    } finally {
      await client.close();
      await other.close();
    }
  });

  it("a client of a revision without tasks gets a required tool's result inline", async () => {
    const client = await McpClient.connect({ url: proxy.url, protocolVersion: "2025-06-18" });
    try {
      const result = await client.callTool("failing_job", {});
      expect(result.isError).toBe(true);
      expect(result.text()).toContain("failing_job failed");
    } finally {
      await client.close();
    }
  });
});

describe("@modelcontextprotocol/ext-tasks through mcpkit proxy (2025-11-25)", () => {
  it("runs a tool as a task to its result, and cancels another upstream", async () => {
    const client = new Client(
      { name: "ext-tasks", version: "0.2.2" },
      { versionNegotiation: { mode: "legacy" } },
    );
    const direct = await McpClient.connect({ url: upstream.url, protocolVersion: "2025-11-25" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
      const session = createTaskSessionFromClient(client, { endpointId: "proxy" });
      const { tools } = await client.listTools();
      const slow = tools.find((tool) => tool.name === "slow_compute")!;
      expect(slow.execution).toEqual({ taskSupport: "optional" });
      const declaration = toolDeclarationFromMcpTool(slow);
      try {
        const execution = await session.callTool(
          "slow_compute",
          { seconds: 1, label: "official" },
          { declaration, task: { preference: "prefer" } },
        );
        expect(execution.kind).toBe("task");
        const { outcome } = await execution.settle();
        const result = resultFromTaskOutcome(outcome) as { content: { type: string; text: string }[] };
        expect(result.content).toEqual([{ type: "text", text: "Computed official in 1 s" }]);
        const before = recorder.sent.length;
        const long = await session.callTool(
          "slow_compute",
          { seconds: 60 },
          { declaration, task: { preference: "prefer" } },
        );
        const upstreamId = await upstreamTaskAfter(before);
        await long.cancel();
        const { outcome: cancelled } = await long.settle();
        expect(cancelled.status).toBe("cancelled");
        await expect
          .poll(async () => (await (await direct.task(upstreamId)).status()).status)
          .toBe("cancelled");
      } finally {
        await session.close();
      }
    } finally {
      await client.close();
      await direct.close();
    }
  });
});
