/**
 * Property-based tests of the NDJSON framer and the message parser, with a fixed seed and a
 * bounded number of runs, so a run is the same every time: random chunking of a valid stream
 * delivers every message once and in order, random bytes never throw out of the framer, and the
 * parser's `_meta` cache never changes what `JSON.parse` would give.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FramingError, NdjsonDecoder, serializeMessage } from "../../src/jsonrpc/framing.js";
import { MessageParser } from "../../src/jsonrpc/message-parser.js";

const SEED = 20260728;
const RUNS = 200;
const run = { seed: SEED, numRuns: RUNS };

const json = fc.jsonValue({ maxDepth: 4 });
const id = fc.oneof(fc.string({ maxLength: 8 }), fc.integer());
const meta = fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 4 });

/** JSON-RPC messages: requests, notifications and responses, some sharing one `_meta`. */
const messages = meta.chain((shared) =>
  fc.array(
    fc.oneof(
      fc.record({
        jsonrpc: fc.constant("2.0"),
        id,
        method: fc.string({ maxLength: 16 }),
        params: fc.record({ x: json, _meta: fc.constantFrom(shared, {}) }),
      }),
      fc.record({ jsonrpc: fc.constant("2.0"), method: fc.string({ maxLength: 16 }) }),
      fc.record({
        jsonrpc: fc.constant("2.0"),
        id,
        result: fc.record({ v: json, _meta: fc.constant(shared) }),
      }),
    ),
    { maxLength: 20 },
  ),
);

/** `bytes` cut at the given points (sorted, deduplicated), which may fall inside a UTF-8 character. */
function chunks(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const point of points) {
    out.push(bytes.subarray(from, point));
    from = point;
  }
  out.push(bytes.subarray(from));
  return out;
}

function decoder(messagesPerTurn?: number) {
  const delivered: unknown[] = [];
  const errors: FramingError[] = [];
  const d = new NdjsonDecoder(
    (value) => delivered.push(value),
    (error) => errors.push(error),
    { messagesPerTurn },
  );
  return { d, delivered, errors };
}

describe("the NDJSON framer, fuzzed", () => {
  it("delivers every message of a valid stream once and in order, however it is chunked", () => {
    fc.assert(
      fc.property(
        messages,
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.boolean(),
        fc.constantFrom(undefined, 1, 3),
        (sent, cuts, crlf, perTurn) => {
          const text = sent
            .map((m) => serializeMessage(m))
            .map((line) => (crlf ? `${line.slice(0, -1)}\r\n` : line))
            .join("\n");
          const { d, delivered, errors } = decoder(perTurn);
          for (const chunk of chunks(Buffer.from(text, "utf8"), cuts)) d.push(chunk);
          d.end();
          expect(errors).toEqual([]);
          expect(delivered).toEqual(sent.map((m) => JSON.parse(JSON.stringify(m))));
        },
      ),
      run,
    );
  });

  it("never throws on random bytes: each bad line is an error, the rest goes on", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.constant(Uint8Array.of(10))), {
          maxLength: 40,
        }),
        (pieces) => {
          const { d, errors } = decoder(2);
          for (const piece of pieces) d.push(piece);
          d.end();
          for (const error of errors) expect(error).toBeInstanceOf(FramingError);
          // Still framing after the garbage.
          const after = decoder();
          after.d.push(Buffer.concat([...pieces, Buffer.from('\n{"jsonrpc":"2.0","method":"ok"}\n')]));
          expect(after.delivered.at(-1)).toEqual({ jsonrpc: "2.0", method: "ok" });
        },
      ),
      run,
    );
  });
});

describe("the message parser, fuzzed", () => {
  /** A message's text, or that text changed at one place (a character added, dropped or replaced). */
  const variants = (text: string) =>
    fc.oneof(
      fc.constant(text),
      fc
        .tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 2 }), fc.nat({ max: 2 }))
        .map(([at, inserted, cut]) => {
          const i = at % (text.length + 1);
          return text.slice(0, i) + inserted + text.slice(i + cut);
        }),
    );

  it("gives what JSON.parse gives, or throws where it throws, over a run of messages sharing a _meta", () => {
    fc.assert(
      fc.property(
        messages.chain((sent) => fc.tuple(...sent.map((m) => variants(JSON.stringify(m))))),
        (texts) => {
          const parser = new MessageParser();
          for (const text of texts) {
            let expected: unknown;
            let failed = false;
            try {
              expected = JSON.parse(text);
            } catch {
              failed = true;
            }
            if (failed) expect(() => parser.parse(text)).toThrow(SyntaxError);
            else expect(parser.parse(text)).toEqual(expected);
          }
        },
      ),
      run,
    );
  });
});
