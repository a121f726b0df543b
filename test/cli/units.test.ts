/** The CLI's pure parts: argument typing, durations, layout, operands, and how `serve` passes argv. */
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { toolArguments } from "../../src/cli/commands/call.js";
import { referenceOf } from "../../src/cli/commands/complete.js";
import { type BundledServers, registerServeCommand } from "../../src/cli/commands/serve.js";
import { Exit, exitCodeOf, UsageError } from "../../src/cli/shared/errors.js";
import { formatSize, table, truncate } from "../../src/cli/shared/format.js";
import { headersOf, parseDuration } from "../../src/cli/shared/options.js";
import { signature, typedValue } from "../../src/cli/shared/schema.js";
import { splitOperands } from "../../src/cli/shared/target.js";
import { ErrorCode, McpError } from "../../src/jsonrpc/errors.js";
import type { McpServer } from "../../src/server/server.js";

describe("--arg values typed by the input schema", () => {
  it("keeps text for string properties, reads JSON for the others", () => {
    expect(typedValue({ type: "string" }, "007")).toBe("007");
    expect(typedValue({ type: "string" }, "true")).toBe("true");
    expect(typedValue({ type: "string" }, '"quoted"')).toBe("quoted");
    expect(typedValue({ type: "number" }, "3.5")).toBe(3.5);
    expect(typedValue({ type: "integer" }, "42")).toBe(42);
    expect(typedValue({ type: "boolean" }, "false")).toBe(false);
    expect(typedValue({ type: "array", items: { type: "string" } }, '["a","b"]')).toEqual(["a", "b"]);
    expect(typedValue({ type: "object" }, '{"k":1}')).toEqual({ k: 1 });
    expect(typedValue({ type: ["number", "null"] }, "null")).toBeNull();
    expect(typedValue({ enum: ["1", "2"] }, "1")).toBe("1");
    expect(typedValue({ enum: [1, 2] }, "1")).toBe(1);
    expect(typedValue({ anyOf: [{ type: "string" }, { type: "number" }] }, "5")).toBe(5);
  });

  it("without a schema: JSON when it parses, else the text; a value that fits no type is a usage error", () => {
    expect(typedValue(undefined, "12")).toBe(12);
    expect(typedValue(undefined, "hello")).toBe("hello");
    expect(typedValue({}, "[1]")).toEqual([1]);
    expect(() => typedValue({ type: "number" }, "two", "n")).toThrow(
      '--arg n=two: "n" takes a number, and "two" is not one',
    );
    expect(() => typedValue({ type: "integer" }, "1.5", "n")).toThrow('"n" takes an integer');
    expect(() => typedValue({ type: ["object", "null"] }, "[1]", "o")).toThrow(
      '"o" takes an object or a null',
    );
  });

  it("merges a JSON object and --arg pairs, the pairs winning", () => {
    const tool = {
      name: "t",
      inputSchema: { type: "object" as const, properties: { a: { type: "number" }, s: { type: "string" } } },
    };
    expect(toolArguments(tool, '{"a": 1, "s": "x"}', ["a=2", "s=10", "extra=[1]", "eq=a=b"])).toEqual({
      a: 2,
      s: "10",
      extra: [1],
      eq: "a=b",
    });
    expect(() => toolArguments(tool, "nope", [])).toThrow(UsageError);
    expect(() => toolArguments(tool, undefined, ["novalue"])).toThrow(/--arg: expected key=value/);
  });

  it("shows a tool's arguments as one line", () => {
    const schema = {
      type: "object" as const,
      properties: {
        message: { type: "string" },
        count: { type: "integer" },
        tags: { type: "array", items: { type: "string" } },
        mode: { enum: ["a", "b"] },
      },
      required: ["message"],
    };
    expect(signature(schema)).toBe('message: string, count?: integer, tags?: string[], mode?: "a"|"b"');
  });
});

describe("options and operands", () => {
  it("reads durations: bare seconds, ms, s, m", () => {
    expect(parseDuration("30")).toBe(30_000);
    expect(parseDuration("500ms")).toBe(500);
    expect(parseDuration("1.5s")).toBe(1500);
    expect(parseDuration("2m")).toBe(120_000);
    expect(() => parseDuration("0")).toThrow(UsageError);
    expect(() => parseDuration("soon")).toThrow(UsageError);
  });

  it("reads headers as name: value", () => {
    expect(headersOf(["Authorization: Bearer a:b", "X-Key:1"])).toEqual({
      Authorization: "Bearer a:b",
      "X-Key": "1",
    });
    expect(() => headersOf(["nocolon"])).toThrow(UsageError);
  });

  it("takes the server from the last operand, unless a command came after --", () => {
    expect(splitOperands(["echo", "{}", "http://x/mcp"], undefined, { min: 1, max: 2 })).toEqual({
      args: ["echo", "{}"],
      server: { name: "http://x/mcp" },
    });
    expect(splitOperands(["echo", "{}"], ["node", "s.js"], { min: 1, max: 2 })).toEqual({
      args: ["echo", "{}"],
      server: { command: ["node", "s.js"] },
    });
    expect(() => splitOperands(["echo"], undefined, { min: 1, max: 2 })).toThrow(/name the server/);
    expect(() => splitOperands(["a", "b", "c"], ["node"], { min: 1, max: 2 })).toThrow(/too many arguments/);
  });

  it("names the completed reference: prompt or template", () => {
    expect(referenceOf("prompt", "p")).toEqual({ type: "ref/prompt", name: "p" });
    expect(referenceOf("template", "t://{x}")).toEqual({ type: "ref/resource", uri: "t://{x}" });
    expect(referenceOf("resource-template", "t://{x}")).toEqual({ type: "ref/resource", uri: "t://{x}" });
    expect(() => referenceOf("tool", "x")).toThrow(UsageError);
  });

  it("maps errors to exit codes", () => {
    expect(exitCodeOf(new UsageError("x"))).toBe(Exit.Usage);
    expect(exitCodeOf(new McpError(ErrorCode.InvalidParams, "bad"))).toBe(Exit.Usage);
    expect(exitCodeOf(new McpError(ErrorCode.ResourceNotFound, "gone"))).toBe(Exit.Usage);
    expect(exitCodeOf(new McpError(ErrorCode.RequestTimeout, "slow"))).toBe(Exit.Connection);
    expect(exitCodeOf(new McpError(ErrorCode.InternalError, "oops"))).toBe(Exit.Connection);
    expect(exitCodeOf(new Error("ECONNREFUSED"))).toBe(Exit.Connection);
  });
});

describe("layout", () => {
  it("cuts long text by lines, then characters, and says how much is left", () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i}`).join("\n");
    expect(truncate(lines, { chars: 1000, lines: 3 })).toBe(
      "line 0\nline 1\nline 2\n… (truncated: 7 more lines; --full shows everything)",
    );
    expect(truncate("x".repeat(50), { chars: 10, lines: 5 })).toBe(
      `${"x".repeat(10)}\n… (truncated: 40 more characters; --full shows everything)`,
    );
    expect(truncate(lines, { chars: 10, lines: 3 }, true)).toBe(lines);
  });

  it("aligns tables, keeps the first column whole and cuts the last to the width", () => {
    const out = table(
      ["NAME", "DESCRIPTION"],
      [
        ["a-long-tool-name", "d".repeat(100)],
        ["b", "short"],
      ],
      { width: 60 },
    );
    const [header, first, second] = out.split("\n");
    expect(header).toBe("  NAME              DESCRIPTION");
    expect(first).toMatch(/^ {2}a-long-tool-name {2}d+…$/);
    expect(first!.length).toBeLessThanOrEqual(60);
    expect(second).toBe("  b                 short");
  });

  it("formats sizes", () => {
    expect(formatSize(68)).toBe("68 B");
    expect(formatSize(4_012)).toBe("4.0 kB");
    expect(formatSize(12_500_000)).toBe("13 MB");
  });
});

describe("serve passes a bundled server its own arguments", () => {
  /** Parses `serve …` with fake servers; resolves with what `create` got and how it was served. */
  async function serve(argv: string[], afterDashes?: string[]) {
    const seen: { args?: string[]; served?: string } = {};
    const fake = (how: string) =>
      ({
        serveStdio: async () => {
          seen.served = how;
        },
      }) as unknown as McpServer;
    const servers: BundledServers = {
      files: {
        description: "a server with arguments",
        usage: "<dir…> [--read-only]",
        create: (args) => {
          if (args.length === 0) throw new Error("name at least one directory");
          seen.args = args;
          return fake("stdio");
        },
      },
      plain: { description: "no arguments", create: () => fake("stdio") },
    };
    const program = new Command().exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
    registerServeCommand(program, { afterDashes, exitCode: 0 }, servers);
    await program.parseAsync(["serve", ...argv], { from: "user" });
    return seen;
  }

  it("in order, with serve's own options taken out wherever they are", async () => {
    expect(await serve(["files", "/a", "--read-only", "/b"])).toEqual({
      args: ["/a", "--read-only", "/b"],
      served: "stdio",
    });
    expect((await serve(["files", "--read-only", "/a"])).args).toEqual(["--read-only", "/a"]);
  });

  it("after --, arguments that look like serve's options go to the server, after a --", async () => {
    expect((await serve(["files", "/a"], ["--port", "/b"])).args).toEqual(["/a", "--", "--port", "/b"]);
  });

  it("a server's complaint about its arguments, and arguments to a server that takes none, are usage errors", async () => {
    await expect(serve(["files"])).rejects.toThrow(/serve files: name at least one directory/);
    await expect(serve(["files"])).rejects.toBeInstanceOf(UsageError);
    await expect(serve(["plain", "x"])).rejects.toThrow(/serve plain: takes no arguments, got "x"/);
  });
});
