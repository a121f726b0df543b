/**
 * A stateless (2026-07-28) caller asked for input that never comes back: the upstream call (a
 * real process over stdio) is cancelled after `inputTimeout`, and the call still leaves its audit
 * line, `abandoned`.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import type { ElicitResult } from "../../src/protocol/types/client-features.js";
import { type AuditRecord, createProxyServer } from "../../src/proxy/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory/index.js";
import { until } from "../helpers/until.js";

const ASKING = fileURLToPath(new URL("../fixtures/asking-server.js", import.meta.url));

let cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  cleanups = [];
});

describe("a stateless caller that never comes back with the answers", () => {
  it("leaves an abandoned audit line, and the upstream call is cancelled", async () => {
    const records: AuditRecord[] = [];
    const proxy = await createProxyServer({
      upstream: { command: process.execPath, args: [ASKING] },
      clientOptions: { protocolVersion: "2025-11-25" },
      inputTimeout: 200,
      audit: (record) => {
        records.push(record);
      },
    });
    cleanups.push(() => proxy.close());
    const [serverSide, clientSide] = createMemoryTransportPair();
    await proxy.connect(serverSide);
    // The person never answers, so the client never sends the next round.
    let release: (answer: ElicitResult) => void = () => {};
    const never = new Promise<ElicitResult>((resolve) => {
      release = resolve;
    });
    const client = await McpClient.connect({
      transport: clientSide,
      protocolVersion: "2026-07-28",
      elicitation: () => never,
    });
    cleanups.push(() => client.close());
    const call = client.callTool("ask", { label: "a", together: 1 }).catch((error: Error) => error);

    await until(() => records.length > 0, { what: "an audit record" });
    expect(records).toEqual([
      expect.objectContaining({ server: "asking", tool: "ask", outcome: "abandoned" }),
    ]);
    // Coming back too late finds the call gone.
    release({ action: "accept", content: { name: "Ada" } });
    const late = await call;
    expect(late instanceof Error ? late.message : late.text()).toMatch(/ended or timed out/);
    // That late round is a request of its own, refused: its line says so.
    expect(records.map((record) => record.outcome)).toEqual(["abandoned", "error"]);
    // The upstream is free: a call now runs.
    const answered = await McpClient.connect({
      transport: (() => {
        const [s, c] = createMemoryTransportPair();
        void proxy.connect(s);
        return c;
      })(),
      protocolVersion: "2025-11-25",
      elicitation: () => ({ action: "accept", content: { name: "Bob" } }),
    });
    cleanups.push(() => answered.close());
    expect((await answered.callTool("ask", { label: "b", together: 1 })).text()).toBe("b: accept Bob");
  });
});
