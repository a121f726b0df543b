/**
 * `mcpkit call` checks the arguments against the tool's input schema before sending them: a missing
 * required argument or a value of the wrong type is a usage error (exit 2) saying what is wrong, and
 * the server (the official reference server here) is never asked.
 */
import { describe, expect, it } from "vitest";
import { mcpkit, REFERENCE_SERVER } from "./run.js";

describe("mcpkit call: arguments checked against the tool's input schema", () => {
  it("exits 2 naming a required argument that is missing", async () => {
    const run = await mcpkit(["call", "get-sum", "--arg", "a=1", ...REFERENCE_SERVER]);
    expect(run.stderr).toContain("get-sum's arguments: must have required property 'b'");
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
  });

  it("exits 2 when a value cannot be made the type the schema says", async () => {
    const run = await mcpkit(["call", "get-sum", "--arg", "a=1", "--arg", "b=x", ...REFERENCE_SERVER]);
    expect(run.stderr).toContain('--arg b=x: "b" takes a number, and "x" is not one');
    expect(run.code).toBe(2);
  });

  it("types numbers by the schema and calls the tool", async () => {
    const run = await mcpkit(["call", "get-sum", "--arg", "a=1", "--arg", "b=2.5", ...REFERENCE_SERVER]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("3.5");
    expect(run.code).toBe(0);
  });

  it("sends the arguments unchecked with --no-validate, for a server whose schema is wrong", async () => {
    const run = await mcpkit(["call", "get-sum", "--no-validate", "--arg", "a=1", ...REFERENCE_SERVER]);
    // The server's own validation answers instead: a tool error, not a usage error.
    expect(run.code).not.toBe(2);
    expect(run.stdout + run.stderr).toMatch(/b/);
  });
});
