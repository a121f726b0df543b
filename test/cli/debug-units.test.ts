/** The pure parts behind the debugging aids: names suggested, colour decided, traces redacted, results trimmed. */
import { describe, expect, it } from "vitest";
import { withoutProtocolMeta } from "../../src/cli/shared/command.js";
import { UsageError } from "../../src/cli/shared/errors.js";
import { table } from "../../src/cli/shared/format.js";
import { parseRevision, rewriteTrace } from "../../src/cli/shared/options.js";
import { slowStartHint } from "../../src/cli/shared/startup.js";
import { closest, didYouMean } from "../../src/cli/shared/suggest.js";
import { colorEnabled, widthOf } from "../../src/cli/shared/terminal.js";
import { describeHeaders, describeUrl, redact } from "../../src/cli/shared/trace.js";
import { editDistance } from "../../src/util/edit-distance.js";

describe("did you mean", () => {
  it("counts insertions, deletions, substitutions and swaps, and stops past the bound", () => {
    expect(editDistance("echo", "echo", 2)).toBe(0);
    expect(editDistance("ecoh", "echo", 2)).toBe(1);
    expect(editDistance("eco", "echo", 2)).toBe(1);
    expect(editDistance("exho", "echo", 2)).toBe(1);
    expect(editDistance("kitten", "sitting", 3)).toBe(3);
    expect(editDistance("kitten", "sitting", 2)).toBe(Number.POSITIVE_INFINITY);
    expect(editDistance("a", "a-very-long-name", 3)).toBe(Number.POSITIVE_INFINITY);
  });

  it("suggests the nearest name, another case, or a longer name it starts", () => {
    const tools = ["echo", "get-sum", "test_simple_text", "test_simple_prompt"];
    expect(closest("ehco", tools)).toBe("echo");
    expect(closest("get_sum", tools)).toBe("get-sum");
    expect(closest("ECHO", tools)).toBe("echo");
    expect(closest("test_simple_txt", tools)).toBe("test_simple_text");
    expect(closest("get", tools)).toBe("get-sum");
    expect(closest("zzz", tools)).toBeUndefined();
    expect(closest("x", tools)).toBeUndefined();
    expect(closest("", tools)).toBeUndefined();
    expect(closest("echo", [])).toBeUndefined();
    expect(didYouMean("ehco", tools)).toBe('; did you mean "echo"?');
    expect(didYouMean("nothing-like-it", tools)).toBe("");
  });

  it("stays bounded for long names", () => {
    const long = "x".repeat(10_000);
    expect(closest(long, [long.slice(1)])).toBeUndefined();
    expect(closest("abc", [long])).toBeUndefined();
  });
});

describe("colour and width", () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };

  it("colours a terminal only; NO_COLOR turns it off; FORCE_COLOR wins over both", () => {
    expect(colorEnabled(tty, {})).toBe(true);
    expect(colorEnabled(pipe, {})).toBe(false);
    expect(colorEnabled(tty, { TERM: "dumb" })).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: "1" })).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: "" })).toBe(true);
    expect(colorEnabled(pipe, { FORCE_COLOR: "1" })).toBe(true);
    expect(colorEnabled(pipe, { FORCE_COLOR: "" })).toBe(true);
    expect(colorEnabled(tty, { FORCE_COLOR: "0" })).toBe(false);
    expect(colorEnabled(tty, { FORCE_COLOR: "false" })).toBe(false);
    expect(colorEnabled(pipe, { FORCE_COLOR: "1", NO_COLOR: "1" })).toBe(true);
  });

  it("fits the terminal's width, or COLUMNS when there is no terminal", () => {
    expect(widthOf({ isTTY: true, columns: 72 }, 120, { COLUMNS: "200" })).toBe(72);
    expect(widthOf(pipe, 120, { COLUMNS: "90" })).toBe(90);
    expect(widthOf(pipe, 120, { COLUMNS: "wide" })).toBe(120);
    expect(widthOf(pipe, 120, {})).toBe(120);
  });

  it("narrows the widest cuttable columns so that the table fits", () => {
    const rows = [
      ["a-tool", "x".repeat(40), "y".repeat(40), "z".repeat(100)],
      ["b", "short", "s", "short"],
    ];
    const out = table(["NAME", "ARGUMENTS", "MORE", "DESCRIPTION"], rows, { width: 60 });
    for (const line of out.split("\n")) expect([...line].length).toBeLessThanOrEqual(60);
    expect(out).toContain("a-tool"); // the name column is never cut
    expect(out.split("\n")[1]).toMatch(/^ {2}a-tool {2}x+… {2}y+… {2}z+…$/);
  });

  it("styles the header row after aligning it", () => {
    const out = table(["NAME", "DESCRIPTION"], [["echo", "says it back"]], {
      width: 60,
      heading: (line) => `<${line}>`,
    });
    expect(out).toBe("<  NAME  DESCRIPTION>\n  echo  says it back");
  });
});

describe("trace", () => {
  it("hides credentials wherever they appear, and leaves the message alone", () => {
    const message = {
      jsonrpc: "2.0",
      id: 1,
      params: {
        headers: { Authorization: "Bearer s3cret" },
        nested: [{ access_token: "t0ken" }],
        progressToken: 7,
      },
    };
    const shown = JSON.stringify(redact(message));
    expect(shown).not.toContain("s3cret");
    expect(shown).not.toContain("t0ken");
    expect(shown).toContain('"progressToken":7');
    expect(message.params.headers.Authorization).toBe("Bearer s3cret");
  });

  it("describes headers and URLs without their secrets", () => {
    expect(describeHeaders({ Authorization: "Bearer s3cret", "X-Trace": "1" })).toBe(
      "Authorization: [redacted], X-Trace: 1",
    );
    expect(describeUrl("http://user:pw@host:3000/mcp?token=abc&x=1")).toBe(
      "http://user:[redacted]@host:3000/mcp?token=[redacted]&x=1",
    );
  });

  it("takes --trace=FILE, leaving --trace alone so that a URL after it stays the server", () => {
    expect(rewriteTrace(["tools", "--trace", "http://h/mcp"])).toEqual(["tools", "--trace", "http://h/mcp"]);
    expect(rewriteTrace(["tools", "--trace=t.log", "x"])).toEqual(["tools", "--trace-file", "t.log", "x"]);
    expect(() => rewriteTrace(["tools", "--trace="])).toThrow(UsageError);
  });
});

describe("--protocol, --meta and the slow start hint", () => {
  it("takes a known revision, and suggests one for a typo", () => {
    expect(parseRevision("2025-06-18")).toBe("2025-06-18");
    expect(() => parseRevision("2025-06-81")).toThrow(/did you mean "2025-06-18"/);
    expect(() => parseRevision("latest")).toThrow(/there are: 2026-07-28/);
  });

  it("drops resultType, caching hints and the protocol's _meta keys, keeping the server's own", () => {
    const result = {
      content: [],
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "s" }, "com.example/trace": "abc" },
    };
    expect(withoutProtocolMeta(result)).toEqual({ content: [], _meta: { "com.example/trace": "abc" } });
    expect(
      withoutProtocolMeta({ contents: [], _meta: { "io.modelcontextprotocol/serverInfo": {} } }),
    ).toEqual({
      contents: [],
    });
    expect(result.resultType).toBe("complete");
  });

  it("blames a package download for a slow npx, and says what else to try otherwise", () => {
    expect(slowStartHint("npx")).toMatch(/first run of npx may be downloading the package/);
    expect(slowStartHint("/usr/local/bin/uvx")).toMatch(/first run of uvx/);
    expect(slowStartHint("docker")).toMatch(/downloading the image/);
    expect(slowStartHint("node")).toMatch(/--verbose/);
    expect(slowStartHint(undefined)).toMatch(/still connecting/);
  });
});
