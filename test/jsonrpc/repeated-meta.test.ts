import { describe, expect, it } from "vitest";
import { fixedJson, messageJson, withProgressToken } from "../../src/jsonrpc/fixed-json.js";
import { MessageParser } from "../../src/jsonrpc/message-parser.js";

const identity = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { roots: {} },
  "io.modelcontextprotocol/clientInfo": { name: "test", version: "1.0.0" },
};

const request = (id: number, params: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params });

/** Parses every text with a fresh JSON.parse and with one MessageParser, in order. */
function bothWays(texts: string[]) {
  const parser = new MessageParser();
  return texts.map((text) => {
    let expected: unknown;
    let actual: unknown;
    try {
      expected = JSON.parse(text);
    } catch (error) {
      expected = (error as Error).name;
    }
    try {
      actual = parser.parse(text);
    } catch (error) {
      actual = (error as Error).name;
    }
    return { expected, actual };
  });
}

describe("MessageParser", () => {
  it("gives what JSON.parse gives, sharing one frozen _meta once it repeats", () => {
    const parser = new MessageParser();
    const texts = [1, 2, 3].map((id) =>
      request(id, { name: "echo", arguments: { message: `hi ${id}` }, _meta: identity }),
    );
    const parsed = texts.map((text) => parser.parse(text) as { params: { _meta: unknown } });
    expect(parsed).toEqual(texts.map((text) => JSON.parse(text)));
    expect(parsed[1]!.params._meta).toBe(parsed[0]!.params._meta);
    expect(parsed[2]!.params._meta).toBe(parsed[0]!.params._meta);
    expect(Object.isFrozen(parsed[2]!.params._meta)).toBe(true);
    expect(
      Object.isFrozen(
        (parsed[2]!.params._meta as Record<string, unknown>)["io.modelcontextprotocol/clientInfo"],
      ),
    ).toBe(true);
  });

  it("handles a body that holds nothing but _meta, and results as well as params", () => {
    const result = (id: number) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id,
        result: { _meta: { "io.modelcontextprotocol/serverInfo": { name: "s" } } },
      });
    const texts = [
      request(1, { _meta: identity }),
      request(2, { _meta: identity }),
      request(3, { _meta: identity }),
      result(4),
      result(5),
      result(6),
    ];
    for (const { expected, actual } of bothWays(texts)) expect(actual).toEqual(expected);
  });

  it("rejects what JSON.parse rejects, even when the text ends with the remembered _meta", () => {
    const tail = `"_meta":${JSON.stringify(identity)}}}`;
    const texts = [
      request(1, { _meta: identity }),
      request(2, { a: 1, _meta: identity }),
      `{"jsonrpc":"2.0","id":3,"method":"m","params":{,${tail}`,
      `{"jsonrpc":"2.0","id":4,"method":"m","params":{ ,${tail}`,
      `{"jsonrpc":"2.0","id":5,"method":"m","params":{"a":"x,${tail}`,
      `{"jsonrpc":"2.0","id":6,"method":"m","params":{"a":[,${tail}`,
      `{"jsonrpc":"2.0","id":7,"method":"m","params":{"a":1,,${tail}`,
      `{"jsonrpc":"2.0","id":8,"method":"m","params":{"a":1 ${tail}`,
      request(9, { a: 1, _meta: identity }),
    ];
    const results = bothWays(texts);
    for (const { expected, actual } of results) expect(actual).toEqual(expected);
    expect(results.slice(2, 8).map((r) => r.actual)).toEqual(Array(6).fill("SyntaxError"));
  });

  it("leaves alone a _meta that is not the body's, or not at the end", () => {
    const texts = [
      request(1, { _meta: identity }),
      request(2, { _meta: identity }),
      // An integer-like member is listed first: the last member in the text is not the last listed.
      `{"jsonrpc":"2.0","params":{"a":1},"5":{"_meta":${JSON.stringify(identity)}}}`,
      `{"jsonrpc":"2.0","id":3,"method":"m","params":{"nested":{"_meta":${JSON.stringify(identity)}}}}`,
      `{"jsonrpc":"2.0","id":4,"method":"m","params":{"_meta":${JSON.stringify(identity)},"after":true}}`,
      `{"id":5,"method":"m","jsonrpc":"2.0","params":{"_meta":${JSON.stringify(identity)}}}`,
      `[{"jsonrpc":"2.0","id":6,"method":"m","params":{"_meta":${JSON.stringify(identity)}}}]`,
      `{"jsonrpc":"2.0","id":7,"method":"m","params":{"s":"\\"_meta\\":{}}}","_meta":${JSON.stringify(identity)}}}`,
    ];
    for (const { expected, actual } of bothWays(texts)) expect(actual).toEqual(expected);
  });

  it("parses long messages as they are", () => {
    const parser = new MessageParser();
    const short = [1, 2].map((id) => parser.parse(request(id, { _meta: identity })) as { params: object });
    const long = parser.parse(request(3, { text: "x".repeat(70_000), _meta: identity })) as {
      params: { _meta: unknown };
    };
    expect(long).toEqual(JSON.parse(request(3, { text: "x".repeat(70_000), _meta: identity })));
    expect(long.params._meta).not.toBe((short[1]!.params as { _meta: unknown })._meta);
  });

  it("stays right when every message brings a different _meta", () => {
    const texts = Array.from({ length: 300 }, (_, i) =>
      request(i, { name: "t", _meta: { progressToken: i % 7 === 0 ? 1 : i } }),
    );
    for (const { expected, actual } of bothWays(texts)) expect(actual).toEqual(expected);
  });

  it("agrees with JSON.parse on generated messages", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pieces = ['"', "\\", "{", "}", ",", ":", "_meta", "a", " ", "[", "]", "é"];
    const text = () =>
      Array.from(
        { length: Math.floor(random() * 8) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join("");
    const metas = [identity, { "io.modelcontextprotocol/serverInfo": { name: text() } }, { k: [1, "x"] }];
    const texts: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const meta = metas[Math.floor(random() * metas.length)];
      const body: Record<string, unknown> = random() < 0.5 ? { s: text() } : {};
      if (random() < 0.9) body._meta = meta;
      const json = JSON.stringify({ jsonrpc: "2.0", id: i, [random() < 0.5 ? "params" : "result"]: body });
      // Now and then a damaged copy: a character dropped or added.
      const at = Math.floor(random() * json.length);
      const damage = random();
      texts.push(
        damage < 0.8
          ? json
          : damage < 0.9
            ? json.slice(0, at) + json.slice(at + 1)
            : json.slice(0, at) + pieces[Math.floor(random() * pieces.length)] + json.slice(at),
      );
    }
    for (const { expected, actual } of bothWays(texts)) expect(actual).toEqual(expected);
  });
});

describe("messageJson", () => {
  it("writes a fixed _meta as kept text, and the message reads back the same", () => {
    const meta = fixedJson(identity);
    const messages = [
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", _meta: meta } },
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta } },
      { jsonrpc: "2.0", id: 3, result: { content: [], _meta: meta, resultType: "complete" } },
      { jsonrpc: "2.0", method: "notifications/x", params: { _meta: meta } },
    ];
    for (const message of messages) {
      const text = messageJson(message);
      expect(JSON.parse(text)).toEqual(message);
      const body =
        (message as { params?: object; result?: object }).params ?? (message as { result: object }).result;
      expect((body as { _meta: unknown })._meta).toBe(meta);
    }
    expect(messageJson(messages[0]!)).toBe(JSON.stringify(messages[0]));
  });

  it("serializes everything else with JSON.stringify", () => {
    const meta = fixedJson(identity);
    const notLast = { jsonrpc: "2.0", params: { _meta: meta }, method: "m" };
    const plain = { jsonrpc: "2.0", id: 2, method: "m", params: { _meta: { ...identity } } };
    const withToJSON = { jsonrpc: "2.0", id: 3, result: { _meta: meta, toJSON: () => ({ x: 1 }) } };
    for (const message of [notLast, plain, withToJSON])
      expect(messageJson(message)).toBe(JSON.stringify(message));
  });

  it("writes what JSON.stringify writes, the fixed _meta moved last", () => {
    const meta = fixedJson(identity);
    const short = [
      { jsonrpc: "2.0", id: 'a"b', result: { _meta: meta, a: 1, skipped: undefined, f: () => 1 } },
      {
        jsonrpc: "2.0",
        id: 7,
        result: { content: [{ type: "text", text: 'é"x' }], _meta: meta, resultType: "complete" },
      },
      { jsonrpc: "2.0", id: undefined, method: "m", params: { 1: "one", b: [1, null], _meta: meta } },
    ];
    for (const message of short) {
      const text = messageJson(message);
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(message)));
      expect(text.endsWith(`"_meta":${JSON.stringify(identity)}}}`)).toBe(true);
      expect(text.length).toBe(JSON.stringify(message).length);
    }
    // A long one is not cut up: it is JSON.stringify's text as it is.
    const long = {
      jsonrpc: "2.0",
      id: 8,
      result: { content: [{ type: "text", text: "x".repeat(5000) }], _meta: meta },
    };
    const many = {
      jsonrpc: "2.0",
      id: 9,
      result: { items: Array.from({ length: 100 }, (_, i) => i), _meta: meta },
    };
    for (const message of [long, many]) expect(messageJson(message)).toBe(JSON.stringify(message));
  });

  it("fixedJson keeps a frozen copy, whatever becomes of the original", () => {
    const original = { info: { name: "a" } };
    const fixed = fixedJson(original);
    original.info.name = "b";
    expect(fixed).toEqual({ info: { name: "a" } });
    expect(Object.isFrozen(fixed.info)).toBe(true);
    expect(messageJson({ jsonrpc: "2.0", id: 1, result: { _meta: fixed } })).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"_meta":{"info":{"name":"a"}}}}',
    );
  });

  it("keeps the JSON out of sight: a kept _meta is a plain object, and a copy of it a plain one without the JSON", () => {
    const meta = fixedJson(identity);
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
    expect(Object.keys(meta)).toEqual(Object.keys(identity));
    // A copy changed after it was made is serialized as it is, not with the original's JSON.
    const copy: Record<string, unknown> = { ...meta, extra: 1 };
    const message = { jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: copy } };
    expect(messageJson(message)).toBe(JSON.stringify(message));
    expect(JSON.parse(messageJson(message)).params._meta.extra).toBe(1);
    // A `_meta` that is no object (a peer's mistake) is serialized as it is.
    const odd = { jsonrpc: "2.0", id: 2, method: "ping", params: { _meta: "odd" } };
    expect(messageJson(odd)).toBe(JSON.stringify(odd));
  });

  it("round-trips through a MessageParser", () => {
    const meta = fixedJson(identity);
    const parser = new MessageParser();
    for (let id = 0; id < 5; id++) {
      const message = { jsonrpc: "2.0", id, method: "tools/call", params: { name: `t${id}`, _meta: meta } };
      expect(parser.parse(messageJson(message))).toEqual(message);
    }
  });

  it("withProgressToken adds a progress token to a kept _meta, serialized as JSON.stringify would", () => {
    const meta = fixedJson(identity);
    const empty = fixedJson({});
    const messages = [1, 2].map((id) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "echo", _meta: withProgressToken(meta, id) },
    }));
    for (const message of [messages[1]!, messages[0]!]) {
      expect(messageJson(message)).toBe(JSON.stringify(message));
    }
    const alone = {
      jsonrpc: "2.0",
      id: 3,
      method: "ping",
      params: { _meta: withProgressToken(empty, "t") },
    };
    expect(messageJson(alone)).toBe(JSON.stringify(alone));
    expect(Object.isFrozen(messages[1]!.params._meta)).toBe(true);
    expect(meta).not.toHaveProperty("progressToken");
    // Not a kept one, or one that has the member already: a plain copy.
    const plain = withProgressToken({ a: 1 }, 4);
    expect(plain).toEqual({ a: 1, progressToken: 4 });
    expect(withProgressToken(fixedJson({ progressToken: 1 }), 5)).toEqual({ progressToken: 5 });
  });
});
