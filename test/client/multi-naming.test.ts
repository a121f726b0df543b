import { describe, expect, it } from "vitest";
import { assignToolNames, sanitizeToolName, ToolNameConflictError } from "../../src/client/index.js";

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

describe("sanitizeToolName", () => {
  it("keeps valid names and replaces what providers refuse", () => {
    expect(sanitizeToolName("read_file")).toBe("read_file");
    expect(sanitizeToolName("files.read-all")).toBe("files_read-all");
    expect(sanitizeToolName("résumé/tool")).toBe("r_sum__tool");
    expect(sanitizeToolName("")).toBe("tool");
  });

  it("cuts long names to 64 characters ending in a stable hash of the original", () => {
    const a = sanitizeToolName("x".repeat(100));
    const b = sanitizeToolName(`${"x".repeat(99)}y`);
    expect(a).toMatch(VALID);
    expect(a).toHaveLength(64);
    expect(a).toMatch(/^x{55}_[0-9a-f]{8}$/);
    expect(b).not.toBe(a);
    expect(sanitizeToolName("x".repeat(100))).toBe(a);
  });
});

describe("assignToolNames", () => {
  const entries = [
    { server: "fs", tool: "search" },
    { server: "web", tool: "search" },
    { server: "fs", tool: "read_file" },
  ];

  it("prefixes only the conflicting tools by default", () => {
    expect(assignToolNames(entries, "prefix-on-conflict")).toEqual([
      "fs__search",
      "web__search",
      "read_file",
    ]);
  });

  it("prefixes every tool with prefix-always", () => {
    expect(assignToolNames(entries, "prefix-always")).toEqual(["fs__search", "web__search", "fs__read_file"]);
  });

  it("throws a ToolNameConflictError naming the servers with error", () => {
    const error = (() => {
      try {
        assignToolNames(entries, "error");
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ToolNameConflictError);
    expect((error as ToolNameConflictError).conflicts).toEqual([{ name: "search", servers: ["fs", "web"] }]);
    expect(assignToolNames(entries.slice(2), "error")).toEqual(["read_file"]);
  });

  it("tells apart names that only sanitizing made equal, and keeps every name valid", () => {
    const names = assignToolNames(
      [
        { server: "one", tool: "a.b" },
        { server: "one", tool: "a_b" },
        { server: "my server", tool: "x".repeat(100) },
        { server: "other", tool: "x".repeat(100) },
      ],
      "prefix-on-conflict",
    );
    expect(new Set(names).size).toBe(4);
    for (const name of names) expect(name).toMatch(VALID);
    expect(names[0]).toMatch(/^a_b_[0-9a-f]{8}$/);
    expect(names[2]).toMatch(/^my_server__x+_[0-9a-f]{8}$/);
  });
});
