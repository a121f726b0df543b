import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type AgentTool, asTools, localTool, McpClient, mcpTool, ToolError } from "../../src/client/index.js";
import { ErrorCode, McpError } from "../../src/jsonrpc/index.js";
import { McpServer } from "../../src/server/index.js";
import { connectInMemory } from "../helpers/connect.js";
import { until } from "../helpers/until.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/multi-search-server.js", import.meta.url));

let client: McpClient;
let tools: AgentTool[];
const byName = (name: string) => tools.find((tool) => tool.name === name)!;

beforeAll(async () => {
  client = await McpClient.connect({ command: process.execPath, args: [FIXTURE, "alpha"] });
  tools = await asTools(client);
});
afterAll(() => client.close());

describe("asTools / mcpTool", () => {
  it("adapts every tool the server lists, with its description and input schema", async () => {
    const listed = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(listed.map((tool) => tool.name));
    const search = byName("search");
    expect(search.description).toBe("Searches the alpha index");
    expect(search.inputSchema).toMatchObject({ type: "object", properties: { query: { type: "string" } } });
    const output = await search.invoke({ query: "cats" });
    // The result's _meta comes along: here, statelessly, the server's identity.
    expect(output).toEqual({
      text: "alpha: results for cats",
      content: [{ type: "text", text: "alpha: results for cats" }],
      isError: false,
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "alpha-server", version: "1.0.0" } },
    });
  });

  it("follows every page of tools/list, with per-tool options", async () => {
    const server = new McpServer({ name: "paged", version: "1.0.0" }, { pageSize: 2 });
    for (const name of ["a", "b", "c", "d", "e"]) {
      server.tool(name, { description: `tool ${name}` }, () => {
        throw new Error(`${name} failed`);
      });
    }
    const { client: paged, log } = await connectInMemory(server);
    try {
      const all = await asTools(paged, { tools: { c: { throwOnToolError: true, name: "see" } } });
      expect(all.map((tool) => tool.name)).toEqual(["a", "b", "see", "d", "e"]);
      const lists = log.entries.filter(
        ({ message }) => (message as { method?: string }).method === "tools/list",
      );
      expect(lists).toHaveLength(3);
      expect((await all[0]!.invoke({})).isError).toBe(true);
      await expect(all[2]!.invoke({})).rejects.toThrow("Tool see failed: c failed");
    } finally {
      await paged.close();
    }
  });

  it("returns a tool's failure as data, with the error text, for the model to read", async () => {
    const output = await byName("broken").invoke({});
    expect(output.isError).toBe(true);
    expect(output.text).toBe("alpha: the index is offline");
  });

  it("throws a ToolError carrying the result with throwOnToolError", async () => {
    const [listed] = (await client.listTools()).filter((tool) => tool.name === "broken");
    const strict = mcpTool(client, listed!, { throwOnToolError: true, name: "alpha_broken" });
    const error = await strict.invoke({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).tool).toBe("alpha_broken");
    expect((error as ToolError).result).toMatchObject({ isError: true, text: "alpha: the index is offline" });
  });

  it("keeps protocol failures as McpError", async () => {
    const ghost = mcpTool(client, { name: "no_such_tool", inputSchema: { type: "object" } });
    const error = await ghost.invoke({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
  });

  it("cancels the call on the server when the invoke is aborted", async () => {
    const controller = new AbortController();
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const call = byName("wait").invoke({}, { signal: controller.signal, onProgress: () => started() });
    await running; // the server's handler runs
    controller.abort(new Error("the agent step was abandoned"));
    await expect(call).rejects.toThrow("the agent step was abandoned");
    const cancelled = async () => (await byName("was_cancelled").invoke({})).text === "true";
    await until(cancelled, { what: "the server to see the call cancelled" });
  });

  it("restarts the timeout on progress, up to the hard cap", async () => {
    const [slow] = (await client.listTools()).filter((tool) => tool.name === "slow");
    // Steps far shorter than the timeout, the whole call longer than it: progress keeps it alive.
    // The margins are wide so a loaded machine's pauses between steps cannot reach the timeout.
    const args = { steps: 20, delay: 100 };
    const patient = mcpTool(client, slow!, { timeout: 1500 });
    expect((await patient.invoke(args)).text).toBe("alpha: done after 20 steps");
    const noReset = mcpTool(client, slow!, { timeout: 1500, resetTimeoutOnProgress: false });
    await expect(noReset.invoke(args)).rejects.toMatchObject({ code: ErrorCode.RequestTimeout });
    const capped = mcpTool(client, slow!, { timeout: 1500, maxTotalTimeout: 1600 });
    await expect(capped.invoke(args)).rejects.toThrow(/maximum total time of 1600 ms/);
    // The caller's timeout wins over the tool's.
    await expect(patient.invoke(args, { timeout: 50 })).rejects.toMatchObject({
      code: ErrorCode.RequestTimeout,
    });
  });
});

describe("localTool", () => {
  const add = localTool({
    name: "add",
    description: "Adds two numbers",
    input: z.object({ a: z.number(), b: z.number() }),
    run: ({ a, b }) => String(a + b),
  });

  it("exposes a JSON Schema and runs with validated arguments", async () => {
    expect(add.inputSchema).toMatchObject({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    expect((await add.invoke({ a: 2, b: 3 })).text).toBe("5");
  });

  it("answers invalid arguments and thrown errors with isError, not exceptions", async () => {
    const invalid = await add.invoke({ a: "two", b: 3 });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toMatch(/^Invalid arguments for tool add: a: /);
    const failing = localTool({
      name: "fail",
      description: "Fails",
      run: () => {
        throw new Error("nope");
      },
    });
    expect(await failing.invoke({})).toMatchObject({ isError: true, text: "nope" });
    const throwing = localTool({
      ...{ name: "fail", description: "Fails" },
      throwOnToolError: true,
      run: () => {
        throw new Error("nope");
      },
    });
    await expect(throwing.invoke({})).rejects.toBeInstanceOf(ToolError);
  });

  it("takes a plain JSON Schema and returns structured values as JSON text", async () => {
    const lookup = localTool({
      name: "lookup",
      description: "Looks a key up",
      input: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
      run: (args) => ({ key: args.key, value: 42 }),
    });
    expect(await lookup.invoke({ key: "k" })).toEqual({
      text: '{"key":"k","value":42}',
      content: [{ type: "text", text: '{"key":"k","value":42}' }],
      structuredContent: { key: "k", value: 42 },
      isError: false,
    });
    expect((await lookup.invoke({})).isError).toBe(true);
  });

  it("aborts the run on the caller's signal or the timeout", async () => {
    let seen: AbortSignal | undefined;
    const hang = localTool({
      name: "hang",
      description: "Never ends by itself",
      run: (_args, { signal }) => {
        seen = signal;
        return new Promise(() => {});
      },
    });
    const controller = new AbortController();
    const call = hang.invoke({}, { signal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(call).rejects.toThrow("stop");
    expect(seen?.aborted).toBe(true);
    await expect(hang.invoke({}, { timeout: 20 })).rejects.toMatchObject({ code: ErrorCode.RequestTimeout });
  });

  it("mixes with MCP tools", async () => {
    const mixed: AgentTool[] = [...tools, add];
    expect(new Set(mixed.map((tool) => tool.name)).size).toBe(mixed.length);
    expect((await mixed.find((tool) => tool.name === "add")!.invoke({ a: 1, b: 1 })).text).toBe("2");
  });
});
