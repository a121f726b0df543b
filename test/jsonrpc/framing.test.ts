import { describe, expect, it } from "vitest";
import { type FramingError, NdjsonDecoder, serializeMessage } from "../../src/jsonrpc/framing.js";
import { messageProblem } from "../../src/jsonrpc/messages.js";

function decoder(maxMessageSize?: number, messagesPerTurn?: number) {
  const messages: unknown[] = [];
  const errors: FramingError[] = [];
  const d = new NdjsonDecoder(
    (m) => messages.push(m),
    (e) => errors.push(e),
    { maxMessageSize, messagesPerTurn },
  );
  return { d, messages, errors };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const lines = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `{"n":${from + i}}\n`).join("");
const numbers = (messages: unknown[]) => messages.map((m) => (m as { n: number }).n);

describe("NdjsonDecoder", () => {
  it("joins a message split across chunks, byte by byte", () => {
    const { d, messages } = decoder();
    const line = Buffer.from(
      `${JSON.stringify({ jsonrpc: "2.0", method: "x", params: { s: "héllo ✓" } })}\n`,
    );
    for (const byte of line) d.push(Uint8Array.of(byte));
    expect(messages).toEqual([{ jsonrpc: "2.0", method: "x", params: { s: "héllo ✓" } }]);
  });

  it("splits many messages in one chunk, with \\r\\n endings and blank lines", () => {
    const { d, messages, errors } = decoder();
    d.push('{"a":1}\r\n\n   \n{"b":2}\n{"c"');
    d.push(":3}\r\n");
    expect(messages).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
    expect(errors).toEqual([]);
  });

  it("reports a line that is not JSON and goes on with the next", () => {
    const { d, messages, errors } = decoder();
    d.push('not json\n{"ok":true}\n');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.kind).toBe("parse");
    expect(errors[0]!.excerpt).toBe("not json");
    expect(messages).toEqual([{ ok: true }]);
  });

  it("drops an over-long line, complete or arriving in pieces, and keeps the stream usable", () => {
    const { d, messages, errors } = decoder(20);
    d.push(`{"big":"${"x".repeat(30)}"}\n{"small":1}\n`);
    d.push(`{"big":"${"y".repeat(15)}`);
    d.push(`${"y".repeat(15)}`);
    d.push(`"}\n{"after":2}\n`);
    expect(errors.map((e) => e.kind)).toEqual(["size", "size"]);
    expect(errors[0]!.message).toContain("limit of 20");
    expect(messages).toEqual([{ small: 1 }, { after: 2 }]);
  });

  it("takes a last line without a newline at the end of the stream", () => {
    const { d, messages } = decoder();
    d.push('{"a":1}\n{"b":');
    d.push("2}");
    expect(messages).toEqual([{ a: 1 }]);
    d.end();
    expect(messages).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it("delivers a burst over several turns with messagesPerTurn, in order, chunks arriving meanwhile", async () => {
    const { d, messages } = decoder(undefined, 3);
    d.push(lines(0, 7) + '{"n":');
    expect(numbers(messages)).toEqual([0, 1, 2]);
    d.push(`7}\n${lines(8, 9)}`);
    expect(numbers(messages)).toEqual([0, 1, 2]);
    await nextTurn();
    expect(numbers(messages)).toEqual([0, 1, 2, 3, 4, 5]);
    await nextTurn();
    expect(numbers(messages)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    d.push(lines(9, 10));
    expect(numbers(messages)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("flushes or ends with every waiting line delivered; clear drops them", async () => {
    const flushed = decoder(undefined, 2);
    flushed.d.push(lines(0, 5));
    flushed.d.flush();
    expect(numbers(flushed.messages)).toEqual([0, 1, 2, 3, 4]);
    const ended = decoder(undefined, 2);
    ended.d.push(`${lines(0, 4)}{"n":4}`);
    ended.d.end();
    expect(numbers(ended.messages)).toEqual([0, 1, 2, 3, 4]);
    const cleared = decoder(undefined, 2);
    cleared.d.push(lines(0, 5));
    cleared.d.clear();
    await nextTurn();
    expect(numbers(cleared.messages)).toEqual([0, 1]);
  });

  it("serializes one message per line, newlines in strings escaped", () => {
    const line = serializeMessage({ jsonrpc: "2.0", method: "m", params: { text: "a\nb" } });
    expect(line.endsWith("\n")).toBe(true);
    expect(line.slice(0, -1)).not.toContain("\n");
  });
});

describe("messageProblem", () => {
  it("accepts the four message kinds", () => {
    expect(messageProblem({ jsonrpc: "2.0", id: 1, method: "ping" })).toBeUndefined();
    expect(messageProblem({ jsonrpc: "2.0", method: "notifications/x" })).toBeUndefined();
    expect(messageProblem({ jsonrpc: "2.0", id: "a", result: {} })).toBeUndefined();
    expect(messageProblem({ jsonrpc: "2.0", id: 1, error: { code: -1, message: "m" } })).toBeUndefined();
  });

  it("names what is wrong", () => {
    expect(messageProblem([1])).toMatch(/JSON object/);
    expect(messageProblem({ jsonrpc: "1.0", method: "x" })).toMatch(/"2.0"/);
    expect(messageProblem({ jsonrpc: "2.0", id: null, method: "x" })).toMatch(/"id"/);
    expect(messageProblem({ jsonrpc: "2.0", id: 1, method: "x", params: [1] })).toMatch(/"params"/);
    expect(messageProblem({ jsonrpc: "2.0", id: 1, method: 3 })).toMatch(/"method"/);
    expect(messageProblem({ jsonrpc: "2.0", result: {} })).toMatch(/id/);
    expect(messageProblem({ jsonrpc: "2.0", id: 1 })).toMatch(/"method", a "result" or an "error"/);
  });
});
