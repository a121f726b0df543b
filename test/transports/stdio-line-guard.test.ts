/**
 * The stdio client's bound on a line's bytes: lines within it pass on whole and in order, however
 * the pipe cut them; a longer line is skipped with only its ends kept, and the request a skipped
 * response answers is found from those ends.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode, type McpError } from "../../src/jsonrpc/errors.js";
import { StdioClientTransport } from "../../src/transports/stdio/client.js";
import { LineGuard, type SkippedLine } from "../../src/transports/stdio/line-guard.js";
import { skippedResponseId } from "../../src/transports/stdio/skipped-response.js";

/** Feeds `text` cut into chunks at `cuts`; returns what was passed on and what was skipped. */
function run(limit: number, text: string, cuts: number[]) {
  const forwarded: Buffer[] = [];
  const skipped: SkippedLine[] = [];
  const guard = new LineGuard(
    limit,
    (bytes) => forwarded.push(Buffer.from(bytes)),
    (line) => skipped.push(line),
  );
  const bytes = Buffer.from(text);
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    guard.push(bytes.subarray(at, cut));
    at = cut;
  }
  return { passed: Buffer.concat(forwarded).toString(), skipped };
}

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

describe("LineGuard", () => {
  it("passes short lines on and skips long ones, however the chunks fall", () => {
    const limit = 40;
    const lines = ["a".repeat(10), "é".repeat(20), "b".repeat(41), "", "c".repeat(40), "d".repeat(200), "€z"];
    const text = `${lines.join("\n")}\n`;
    const kept = lines.filter((line) => Buffer.byteLength(line) <= limit);
    const expected = `${kept.join("\n")}\n`;
    const next = random(7);
    for (let round = 0; round < 300; round++) {
      const size = Buffer.byteLength(text);
      const cuts = Array.from({ length: Math.floor(next() * 12) }, () => Math.floor(next() * size)).sort(
        (a, b) => a - b,
      );
      const { passed, skipped } = run(limit, text, cuts);
      expect(passed).toBe(expected);
      expect(skipped.map((line) => line.bytes)).toEqual([41, 200]);
      expect(skipped.map((line) => line.head)).toEqual(["b".repeat(41), "d".repeat(200)]);
      expect(skipped[1]!.tail).toBe("d".repeat(200));
    }
  });

  it("keeps only the ends of a long line, and no \\r", () => {
    const line = `[${"x".repeat(100_000)}]`;
    const { passed, skipped } = run(1000, `${line}\r\nok\n`, [10, 70_000, 100_001]);
    expect(passed).toBe("ok\n");
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.bytes).toBe(line.length);
    expect(skipped[0]!.head).toBe(line.slice(0, 512));
    // The last 512 bytes read, less the \r.
    expect(skipped[0]!.tail).toBe(line.slice(-511));
  });
});

describe("skippedResponseId", () => {
  const big = "x".repeat(1000);
  const ends = (line: string): SkippedLine => ({
    bytes: line.length,
    head: line.slice(0, 512),
    tail: line.slice(-512),
  });

  it("finds the id of a response before or after its result, and of an error", () => {
    expect(skippedResponseId(ends(`{"jsonrpc":"2.0","id":7,"result":{"t":"${big}"}}`))).toBe(7);
    expect(skippedResponseId(ends(`{"result":{"t":"${big}"},"jsonrpc":"2.0","id":"a\\"b"}`))).toBe('a"b');
    expect(
      skippedResponseId(ends(` { "id" : 3 , "jsonrpc":"2.0", "error":{"code":1,"data":"${big}"} } `)),
    ).toBe(3);
  });

  it("finds none in a request, a notification or what is not an object", () => {
    expect(
      skippedResponseId(ends(`{"jsonrpc":"2.0","id":7,"method":"x","params":{"t":"${big}"}}`)),
    ).toBeUndefined();
    expect(
      skippedResponseId(ends(`{"params":{"t":"${big}"},"method":"x","jsonrpc":"2.0","id":7}`)),
    ).toBeUndefined();
    expect(skippedResponseId(ends(`{"jsonrpc":"2.0","method":"n","params":{"t":"${big}"}}`))).toBeUndefined();
    expect(skippedResponseId(ends(`[{"jsonrpc":"2.0","id":1,"result":{"t":"${big}"}}]`))).toBeUndefined();
    // The id of an object inside the result is not the response's.
    expect(skippedResponseId(ends(`{"jsonrpc":"2.0","result":{"t":"${big}","id":9}}`))).toBeUndefined();
  });
});

describe("StdioClientTransport with maxMessageBytes", () => {
  let transport: StdioClientTransport | undefined;
  afterEach(() => transport?.close());

  it("fails the request a long response answers, reports any other long line, and reads on", async () => {
    // On its first input: a long notification, an answer to 1, a long answer to 2, an answer to 3.
    const server = `
      const big = "x".repeat(100000);
      const line = (message) => JSON.stringify(message) + "\\n";
      process.stdin.once("data", () => process.stdout.write(
        line({ jsonrpc: "2.0", method: "notifications/message", params: { data: big } }) +
        line({ jsonrpc: "2.0", id: 1, result: {} }) +
        line({ jsonrpc: "2.0", id: 2, result: { big } }) +
        line({ jsonrpc: "2.0", id: 3, result: {} }),
      ));
      process.stdin.resume();
    `;
    transport = new StdioClientTransport({
      command: process.execPath,
      args: ["-e", server],
      maxMessageBytes: 10_000,
    });
    const messages: unknown[] = [];
    const errors: Error[] = [];
    let closed = false;
    let third!: () => void;
    const done = new Promise<void>((resolve) => {
      third = resolve;
    });
    await transport.start({
      onmessage: (message) => {
        messages.push(message);
        if ((message as { id?: unknown }).id === 3) third();
      },
      onerror: (error) => errors.push(error),
      oninputend: () => {},
      onclose: () => {
        closed = true;
      },
    });
    transport.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await done;
    expect(messages).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      {
        jsonrpc: "2.0",
        id: 2,
        error: {
          code: ErrorCode.InternalError,
          message:
            "The server's response to request 2 is 100044 bytes, more than maxMessageBytes (10000); it was skipped unread",
          data: { size: 100044, maxMessageBytes: 10000 },
        },
      },
      { jsonrpc: "2.0", id: 3, result: {} },
    ]);
    expect(errors).toHaveLength(1);
    expect((errors[0] as McpError).code).toBe(ErrorCode.ParseError);
    expect(errors[0]!.message).toMatch(
      /^Skipped a message of 100071 bytes the server wrote to stdout, more than maxMessageBytes \(10000\): \{"jsonrpc":"2.0","method":"notifications\/message"/,
    );
    expect(closed).toBe(false);
  });
});
