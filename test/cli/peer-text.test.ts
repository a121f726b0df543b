/** The CLI's one way of showing peer text: by kind, inert, capped; JSON lossless; --raw on a terminal. */
import { describe, expect, it } from "vitest";
import { writeRaw } from "../../src/cli/commands/read.js";
import { describeError, UsageError } from "../../src/cli/shared/errors.js";
import { formatLog } from "../../src/cli/shared/log-line.js";
import { inertJson, PEER_TEXT, peerText } from "../../src/cli/shared/peer-text.js";
import { describeProgress } from "../../src/cli/shared/status.js";
import { didYouMean } from "../../src/cli/shared/suggest.js";
import { ErrorCode, McpError } from "../../src/jsonrpc/errors.js";

const EVIL = "\u001b]0;pwned\u0007\u001b[2J\rOVERWRITTEN\u009b31m\u202eevil";
const SHOWN = "\\x1b]0;pwned\\x07\\x1b[2J\\rOVERWRITTEN\\x9b31m\\u202eevil";
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe("peerText", () => {
  it("escapes control characters; only the multi-line kinds keep line feeds", () => {
    expect(peerText(`a${EVIL}\nb`, "name")).toBe(`a${SHOWN}\\nb`);
    expect(peerText(`a${EVIL}\nb`, "message")).toBe(`a${SHOWN}\\nb`);
    expect(peerText(`a${EVIL}\nb`, "text")).toBe(`a${SHOWN}\nb`);
    expect(peerText(`a${EVIL}\nb`, "content")).toBe(`a${SHOWN}\nb`);
  });

  it("caps each kind at its length, saying how much was left out", () => {
    for (const [kind, { max }] of Object.entries(PEER_TEXT)) {
      const shown = peerText("x".repeat(max + 10), kind as keyof typeof PEER_TEXT);
      expect(shown).toBe(`${"x".repeat(max)}… (10 more characters)`);
    }
    expect(PEER_TEXT.name.max).toBe(200);
    expect(PEER_TEXT.content.max).toBe(1024 * 1024);
  });

  it("shows what is not a string as its string form instead of failing", () => {
    expect(peerText(42, "name")).toBe("42");
    expect(peerText(undefined, "name")).toBe("undefined");
  });
});

describe("inertJson", () => {
  it("escapes C1 controls, DEL and bidi overrides as well as C0, and parses to the same value", () => {
    const value = { [`key${EVIL}`]: [`value${EVIL}\u007f\u2066`], n: 1 };
    for (const space of [undefined, 2]) {
      const text = inertJson(value, space);
      expect(text).not.toMatch(CONTROL);
      expect(text).toContain("\\u009b31m\\u202eevil");
      expect(JSON.parse(text)).toEqual(value);
    }
  });
});

describe("where the CLI shows peer text", () => {
  it("describeError: a server's message and its stderr tail inert, lines kept, capped", () => {
    const error = new McpError(
      ErrorCode.ConnectionClosed,
      `closed${EVIL}\nServer stderr:\n${"y".repeat(100_000)}`,
    );
    const text = describeError(error);
    expect(text).not.toMatch(CONTROL);
    expect(text).toContain(`closed${SHOWN}\nServer stderr:\n`);
    expect(text.length).toBeLessThan(PEER_TEXT.text.max + 100);
    expect(describeError(new Error(`local${EVIL}`))).toBe(`local${SHOWN}`);
    // Described again inside another error it stays inert and capped, and short text reads the same.
    const twice = describeError(new UsageError(describeError(error)));
    expect(twice).not.toMatch(CONTROL);
    expect(twice.length).toBeLessThan(PEER_TEXT.text.max + 100);
    const short = describeError(new McpError(-32000, `short${EVIL}`));
    expect(describeError(new UsageError(short))).toBe(short);
  });

  it("formatLog: level, logger and message inert; a message's further lines indented", () => {
    const line = formatLog({ level: EVIL as "info", logger: EVIL, data: `one${EVIL}\nmcpkit: fake` });
    expect(line).toBe(`[${SHOWN}] ${SHOWN}: one${SHOWN}\n  mcpkit: fake`);
    expect(formatLog({ level: "constructor" as "info", data: { a: "\u009b" } })).toBe(
      '[constructor] {"a":"\\u009b"}',
    );
  });

  it("describeProgress: the message and a progress that is not a number are inert", () => {
    expect(describeProgress({ progress: 1, total: 4, message: EVIL })).toBe(
      `[#####---------------] 25%   ${SHOWN}`,
    );
    expect(describeProgress({ progress: EVIL as unknown as number, total: 4 })).toBe(SHOWN);
  });

  it("did you mean: the server's name inert", () => {
    expect(didYouMean("eval", [`eva${EVIL}`, "evil"])).toBe('; did you mean "evil"?');
    expect(didYouMean("tool\u001b", ["tool\u009b"])).toBe('; did you mean "tool\\x9b"?');
  });
});

describe("read --raw", () => {
  function sink(isTTY: boolean) {
    const chunks: (string | Uint8Array)[] = [];
    return { isTTY, chunks, write: (chunk: string | Uint8Array) => chunks.push(chunk) };
  }
  const text = { uri: "test://t", text: `text${EVIL}\nline 2` };
  const blob = { uri: "test://b", blob: Buffer.from(EVIL).toString("base64") };

  it("writes text and bytes exactly to a file or pipe", () => {
    const out = sink(false);
    writeRaw([text, blob], out);
    expect(out.chunks).toEqual([text.text, Buffer.from(EVIL)]);
  });

  it("on a terminal writes text inert and refuses binary contents before writing anything", () => {
    const out = sink(true);
    writeRaw([text], out);
    expect(out.chunks).toEqual([`text${SHOWN}\nline 2`]);
    const refused = sink(true);
    expect(() => writeRaw([text, blob], refused)).toThrow(/test:\/\/b is binary .*redirect stdout to a file/);
    expect(refused.chunks).toEqual([]);
  });
});
