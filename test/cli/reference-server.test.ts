/**
 * A new user following the README and `--help`: the official reference server (server-everything)
 * inspected, a tool called with --arg, a resource read, a prompt got; each human output readable,
 * each --json output valid JSON with the right data, exit code 0.
 */
import { describe, expect, it } from "vitest";
import { json, mcpkit, OUR_SERVER, REFERENCE_SERVER, SLOW } from "./run.js";

describe("mcpkit against the reference server (server-everything over stdio)", SLOW, () => {
  it("inspect shows the revision, the server, its capabilities, instructions and every list", async () => {
    const run = await mcpkit(["inspect", ...REFERENCE_SERVER]);
    expect(run.stderr).toBe("");
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout;
    expect(out).toMatch(/^Server\s+mcp-servers\/everything \S+ \(Everything Reference Server\)$/m);
    expect(out).toMatch(/^Protocol\s+\d{4}-\d{2}-\d{2}$/m);
    expect(out).toMatch(/^Capabilities\s+.*tools \(listChanged\).*resources \(subscribe, listChanged\)/m);
    expect(out).toMatch(/^Instructions\n {2}# Everything Server/m);
    expect(out).toContain("(truncated: "); // the long instructions are cut, with a note
    expect(out).toMatch(/^Tools \(\d+\)\n {2}NAME +ARGUMENTS +DESCRIPTION$/m);
    expect(out).toMatch(/^ {2}echo +message: string +Echoes back the input string$/m);
    expect(out).toMatch(/^ {2}get-sum +a: number, b: number +Returns the sum of two numbers$/m);
    expect(out).toMatch(/^Resources \(7\)\n {2}URI +NAME +MIME +DESCRIPTION$/m);
    expect(out).toMatch(
      /^ {2}demo:\/\/resource\/static\/document\/architecture\.md +architecture\.md +text\/markdown/m,
    );
    expect(out).toMatch(/^Resource templates \(2\)$/m);
    expect(out).toContain("demo://resource/dynamic/text/{resourceId}");
    expect(out).toMatch(/^Prompts \(4\)$/m);
    expect(out).toMatch(/^ {2}args-prompt +city, state\? +A prompt with two arguments/m);
  });

  it("inspect --json prints the same as one JSON document", async () => {
    const run = await mcpkit(["inspect", "--json", ...REFERENCE_SERVER]);
    expect(run.code, run.stderr).toBe(0);
    const data = json(run);
    expect(data.serverInfo.name).toBe("mcp-servers/everything");
    expect(data.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(data.capabilities.tools).toBeDefined();
    expect(data.instructions).toContain("Everything Server");
    expect(data.tools.map((t: { name: string }) => t.name)).toContain("echo");
    expect(data.resources).toHaveLength(7);
    expect(data.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toContain(
      "demo://resource/dynamic/text/{resourceId}",
    );
    expect(data.prompts.map((p: { name: string }) => p.name)).toEqual([
      "simple-prompt",
      "args-prompt",
      "completable-prompt",
      "resource-prompt",
    ]);
  });

  it("tools lists each tool with its arguments; --json gives { tools }", async () => {
    const human = await mcpkit(["tools", ...REFERENCE_SERVER]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^ {2}NAME +ARGUMENTS +DESCRIPTION$/m);
    expect(human.stdout).toMatch(/^ {2}get-resource-links +count\?: number +Returns/m);
    const machine = await mcpkit(["tools", "--json", ...REFERENCE_SERVER]);
    const echo = json(machine).tools.find((t: { name: string }) => t.name === "echo");
    expect(echo.inputSchema.properties.message.type).toBe("string");
  });

  it("call with --arg shows the content as [type] blocks; --json is the result as sent", async () => {
    const run = await mcpkit(["call", "echo", "--arg", "message=hello world", ...REFERENCE_SERVER]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("[text]\nEcho: hello world\n");
    const machine = await mcpkit(["call", "echo", "--json", "--arg", "message=hi", ...REFERENCE_SERVER]);
    expect(machine.code, machine.stderr).toBe(0);
    expect(json(machine).content).toEqual([{ type: "text", text: "Echo: hi" }]);
  });

  it("--arg values are typed by the input schema: numbers for number properties, text for strings", async () => {
    const sum = await mcpkit(["call", "get-sum", "--arg", "a=2", "--arg", "b=3.5", ...REFERENCE_SERVER]);
    expect(sum.code, sum.stderr).toBe(0);
    expect(sum.stdout).toContain("The sum of 2 and 3.5 is 5.5.");
    const echo = await mcpkit(["call", "echo", "--arg", "message=007", "--json", ...REFERENCE_SERVER]);
    expect(json(echo).content[0].text).toBe("Echo: 007");
    const both = await mcpkit(["call", "get-sum", '{"a": 1, "b": 1}', "--arg", "b=41", ...REFERENCE_SERVER]);
    expect(both.stdout).toContain("The sum of 1 and 41 is 42.");
  });

  it("images are summarised with their mime type and size, resource links with their URI", async () => {
    const image = await mcpkit(["call", "get-tiny-image", ...REFERENCE_SERVER]);
    expect(image.code, image.stderr).toBe(0);
    expect(image.stdout).toMatch(
      /^\[image\] image\/png, [\d.]+ k?B \(data not shown; --json includes it\)$/m,
    );
    expect(image.stdout).not.toMatch(/[A-Za-z0-9+/]{200}/); // no base64 dump
    const links = await mcpkit(["call", "get-resource-links", "--arg", "count=2", ...REFERENCE_SERVER]);
    expect(links.stdout).toMatch(/^\[resource_link\] demo:\/\/resource\/dynamic\/\w+\/1$/m);
    const structured = await mcpkit([
      "call",
      "get-structured-content",
      "--arg",
      "location=Chicago",
      ...REFERENCE_SERVER,
    ]);
    expect(structured.stdout).toMatch(/^\[structuredContent\]\n\{\n {2}"temperature": /m);
  });

  it("read shows a text resource under its mime type and URI; --json gives the contents", async () => {
    const uri = "demo://resource/static/document/features.md";
    const run = await mcpkit(["read", uri, ...REFERENCE_SERVER]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^\\[text/markdown\\] ${uri}\\n# Everything Server - Features`));
    const machine = await mcpkit(["read", uri, "--json", ...REFERENCE_SERVER]);
    const { contents } = json(machine);
    expect(contents[0]).toMatchObject({ uri, mimeType: "text/markdown" });
    expect(contents[0].text).toContain("## Tools");
  });

  it("read summarises binary contents, and --raw writes the decoded bytes", async () => {
    const run = await mcpkit(["read", "test://static-binary", ...OUR_SERVER]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^\[image\/png\] test:\/\/static-binary\n\(binary, \d+ B; --raw writes the bytes, --json gives base64\)$/m,
    );
    const raw = await mcpkit(["read", "test://static-binary", "--raw", ...OUR_SERVER]);
    const machine = await mcpkit(["read", "test://static-binary", "--json", ...OUR_SERVER]);
    expect(raw.bytes.equals(Buffer.from(json(machine).contents[0].blob, "base64"))).toBe(true);
    expect(raw.bytes.subarray(1, 4).toString()).toBe("PNG");
  });

  it("prompt with --arg shows each message as [role, type]; --json gives the messages", async () => {
    const run = await mcpkit(["prompt", "args-prompt", "--arg", "city=Paris", ...REFERENCE_SERVER]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("[user, text]\nWhat's weather in Paris?\n");
    const machine = await mcpkit([
      "prompt",
      "args-prompt",
      "--json",
      "--arg",
      "city=Paris",
      "--arg",
      "state=TX",
      ...REFERENCE_SERVER,
    ]);
    expect(json(machine).messages).toEqual([
      { role: "user", content: { type: "text", text: "What's weather in Paris, TX?" } },
    ]);
    const embedded = await mcpkit([
      "prompt",
      "resource-prompt",
      "--arg",
      "resourceType=Text",
      "--arg",
      "resourceId=2",
      ...REFERENCE_SERVER,
    ]);
    expect(embedded.stdout).toMatch(
      /^\[user, resource\] demo:\/\/resource\/dynamic\/text\/2 \(text\/plain\)$/m,
    );
  });

  it("resources and prompts list what there is; --json gives { resources, resourceTemplates } and { prompts }", async () => {
    const resources = await mcpkit(["resources", ...REFERENCE_SERVER]);
    expect(resources.stdout).toMatch(/^Templates\n {2}URI TEMPLATE +NAME +MIME +DESCRIPTION$/m);
    const data = json(await mcpkit(["resources", "--json", ...REFERENCE_SERVER]));
    expect(data.resources).toHaveLength(7);
    expect(data.resourceTemplates).toHaveLength(2);
    const prompts = await mcpkit(["prompts", ...REFERENCE_SERVER]);
    expect(prompts.stdout).toMatch(/^ {2}completable-prompt +department, name +/m);
    expect(json(await mcpkit(["prompts", "--json", ...REFERENCE_SERVER])).prompts).toHaveLength(4);
  });

  it("complete prints values one per line, with --context for arguments already chosen", async () => {
    const departments = await mcpkit([
      "complete",
      "prompt",
      "completable-prompt",
      "department",
      ...REFERENCE_SERVER,
    ]);
    expect(departments.code, departments.stderr).toBe(0);
    expect(departments.stdout).toBe("Engineering\nSales\nMarketing\nSupport\n");
    const names = await mcpkit([
      "complete",
      "prompt",
      "completable-prompt",
      "name",
      "--context",
      "department=Sales",
      "--json",
      ...REFERENCE_SERVER,
    ]);
    expect(json(names).completion.values).toEqual(["David", "Eve", "Frank"]);
    const template = await mcpkit([
      "complete",
      "template",
      "demo://resource/dynamic/text/{resourceId}",
      "resourceId",
      "1",
      ...REFERENCE_SERVER,
    ]);
    expect(template.code, template.stderr).toBe(0);
    expect(template.stdout).toBe("1\n");
  });
});
