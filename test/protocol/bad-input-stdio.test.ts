/**
 * What a client may send that no client should, in raw bytes to a stdio server: each is answered
 * with the right JSON-RPC error, runs nothing it should not, and the server keeps serving.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fixture, RawStdio } from "../helpers/raw-stdio.js";

let server: RawStdio | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function started(protocolVersion?: string): Promise<RawStdio> {
  server = new RawStdio([fixture("bad-input-server.js")]);
  await server.initialize(protocolVersion);
  return server;
}

const call = (id: unknown, name: string, args: object = {}) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"${name}","arguments":${JSON.stringify(args)}}}\n`;

const nested = (depth: number, leaf = "1") => `${"[".repeat(depth)}${leaf}${"]".repeat(depth)}`;

describe("a stdio server given bad input", () => {
  it("answers a result it cannot serialize with -32603 for that request alone, and keeps serving", async () => {
    const raw = await started();
    raw.write(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"x":${nested(10_000)}}}}\n`,
    );
    raw.write(call(2, "cycle"));
    raw.write(call(3, "bigint"));
    raw.write(call(4, "count"));
    for (const id of [1, 2, 3]) {
      const answer = await raw.answer(id);
      expect(answer).toMatchObject({ jsonrpc: "2.0", id, error: { code: -32603 } });
      expect((answer.error as { message: string }).message).toMatch(/^The result could not be serialized: /);
    }
    expect(await raw.answer(4)).toMatchObject({ id: 4, result: { content: [{ type: "text", text: "1" }] } });
    expect(raw.running).toBe(true);
  });

  it("refuses ids that are neither strings nor safe integers with -32600, running nothing", async () => {
    const raw = await started();
    raw.write(call(1.5, "count"));
    raw.write('{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"count"}}\n');
    raw.write('{"jsonrpc":"2.0","id":9007199254740992,"method":"tools/call","params":{"name":"count"}}\n');
    raw.write('{"jsonrpc":"2.0","id":1e400,"method":"tools/call","params":{"name":"count"}}\n');
    raw.write('{"jsonrpc":"2.0","id":true,"method":"tools/call","params":{"name":"count"}}\n');
    raw.write(call("after", "count"));
    const answer = await raw.answer("after");
    // Nothing ran before: the first counted call is this one.
    expect(answer).toMatchObject({ result: { content: [{ type: "text", text: "1" }] } });
    const errors = raw.received.filter((m) => (m as { error?: unknown }).error !== undefined);
    expect(errors).toHaveLength(5);
    for (const error of errors) {
      // An id that is not one is not echoed: it would name another request. JSON-RPC 2.0 §5
      // answers what has no readable id with a null one.
      expect(error).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    }
  });

  it("accepts a valid request whose _meta nests deeper than a serializer can walk", async () => {
    const raw = await started();
    const meta = `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`;
    const line = `{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"_meta":${meta}}}\n`;
    expect(line.length).toBeLessThan(64 * 1024);
    raw.write(line);
    // The same again: the second is where a learned _meta would be used.
    raw.write(line.replace('"deep"', '"deep2"'));
    raw.write(call("after", "count"));
    expect(await raw.answer("deep")).toEqual({ jsonrpc: "2.0", id: "deep", result: {} });
    expect(await raw.answer("deep2")).toEqual({ jsonrpc: "2.0", id: "deep2", result: {} });
    expect(await raw.answer("after")).toMatchObject({ result: { content: [{ text: "1" }] } });
  });

  it("answers a 2025-03-26 batch with the array of its responses", async () => {
    const raw = await started("2025-03-26");
    raw.write(
      `[${call(1, "count").trim()},{"jsonrpc":"2.0","method":"notifications/progress","params":{}},${call(2, "count").trim()},1]\n`,
    );
    const batch = await raw.next((m) => Array.isArray(m));
    expect(batch).toEqual([
      { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "1" }] } },
      { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "2" }] } },
      {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: expect.stringContaining("must be a JSON object") },
      },
    ]);
    raw.write("[]\n");
    expect(
      await raw.next(
        (m) => !Array.isArray(m) && (m.error as { message?: string })?.message?.includes("empty") === true,
      ),
    ).toMatchObject({ error: { code: -32600 } });
    raw.write(call("after", "count"));
    expect(await raw.answer("after")).toMatchObject({ result: { content: [{ text: "3" }] } });
  });

  it("refuses a batch on revisions after 2025-03-26 with -32600, running nothing", async () => {
    const raw = await started("2025-11-25");
    raw.write(`[${call(1, "count").trim()},${call(2, "count").trim()}]\n`);
    raw.write(call("after", "count"));
    expect(await raw.answer("after")).toMatchObject({ result: { content: [{ text: "1" }] } });
    expect(raw.received).toContainEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: expect.stringContaining("batches") },
    });
  });
});
