/**
 * The bridges: `mcpkit proxy --http -- <command>` serves a stdio server over Streamable HTTP (driven
 * by the official SDK client), and `mcpkit proxy --stdio <url>` serves an HTTP server over stdio
 * (driven by our McpClient, which spawns it). Names are kept; tools (progress, isError), resources,
 * templates, prompts, completion and list changes all go through.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  PromptListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { createEverythingServer } from "../../src/servers/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import { until } from "../helpers/until.js";
import { allGone, CLI, type ProxyProcess, startProxy } from "./helpers.js";

type CallResult = { content: { type: string; text?: string }[]; isError?: boolean };
const textOf = (result: CallResult) => result.content.map((block) => block.text ?? "").join("\n");

describe("mcpkit proxy --http -- <command>: a stdio server over Streamable HTTP, official SDK client", () => {
  let proxy: ProxyProcess;
  let client: Client;
  let upstream: number[] = [];
  const changed = { tools: 0, prompts: 0 };

  beforeAll(async () => {
    proxy = await startProxy(["--http", "--port", "0", "--", process.execPath, CLI, "serve", "everything"]);
    upstream = proxy.children();
    client = new Client({ name: "bridge-test", version: "1.0.0" });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed.tools++;
    });
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      changed.prompts++;
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await proxy?.stop();
  });

  it("presents the upstream as it is: its name, its instructions, its tool names", async () => {
    expect(client.getServerVersion()?.name).toBe("mcpkit-everything");
    expect(proxy.stderr()).toMatch(/mcpkit: proxy: mcpkit-everything: \d+ tools\n/);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain("test_simple_text");
    expect(names).toContain("json_schema_2020_12_tool");
    expect(names.some((name) => name.includes("__"))).toBe(false);
    const simple = tools.find((tool) => tool.name === "test_simple_text")!;
    expect(simple.title).toBe("Simple Text");
    expect(simple.icons?.[0]?.mimeType).toBe("image/png");
  });

  it("calls tools: results, isError, progress", async () => {
    const simple = (await client.callTool({ name: "test_simple_text", arguments: {} })) as CallResult;
    expect(textOf(simple)).toBe("This is a simple text response for testing.");
    const failed = (await client.callTool({ name: "test_error_handling", arguments: {} })) as CallResult;
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe("This tool intentionally returns an error for testing");
    const seen: number[] = [];
    const progress = (await client.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, {
      onprogress: ({ progress }) => seen.push(progress),
    })) as CallResult;
    expect(seen).toEqual([0, 50, 100]);
    expect(textOf(progress)).toMatch(/^Done, reported progress to /);
  });

  it("lists and reads resources and templates, gets prompts, completes", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain("test://static-text");
    const read = await client.readResource({ uri: "test://static-text" });
    expect(read.contents[0]).toMatchObject({
      uri: "test://static-text",
      mimeType: "text/plain",
      text: "This is the content of the static text resource.",
    });
    const binary = await client.readResource({ uri: "test://static-binary" });
    expect(binary.contents[0]).toMatchObject({ mimeType: "image/png", blob: expect.any(String) });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toContain("test://template/{id}/data");
    const templated = await client.readResource({ uri: "test://template/42/data" });
    expect(templated.contents[0]?.uri).toBe("test://template/42/data");
    const prompt = await client.getPrompt({
      name: "test_prompt_with_arguments",
      arguments: { arg1: "a", arg2: "b" },
    });
    expect(JSON.stringify(prompt.messages)).toContain("arg1='a'");
    const items = await client.complete({
      ref: { type: "ref/resource", uri: "test://catalog/{category}/{item}" },
      argument: { name: "item", value: "a" },
      context: { arguments: { category: "fruits" } },
    });
    expect(items.completion.values).toEqual(["apple", "apricot"]);
  });

  it("follows the upstream's tool and prompt list changes", async () => {
    const before = { ...changed };
    const has = async (name: string) => (await client.listTools()).tools.some((tool) => tool.name === name);
    const hadTool = await has("test_dynamic_tool");
    await client.callTool({ name: "test_trigger_tool_change", arguments: {} });
    await until(() => changed.tools > before.tools, { what: "tools/list_changed" });
    expect(await has("test_dynamic_tool")).toBe(!hadTool);
    await client.callTool({ name: "test_trigger_prompt_change", arguments: {} });
    await until(() => changed.prompts > before.prompts, { what: "prompts/list_changed" });
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain("test_dynamic_prompt");
  });

  it("SIGTERM: exit code 0, and the upstream server is gone", async () => {
    await client.close();
    expect(upstream).toHaveLength(1);
    expect(await proxy.stop()).toBe(0);
    expect(await allGone(upstream)).toBe(true);
  });
});

describe("mcpkit proxy --stdio <url>: an HTTP server as a stdio server, driven by McpClient", () => {
  let http: HttpServerHandle;
  let client: McpClient;

  beforeAll(async () => {
    http = await createEverythingServer().serveHttp({ port: 0 });
    client = await McpClient.connect({
      command: process.execPath,
      args: [CLI, "proxy", "--stdio", http.url],
    });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await http?.close();
  });

  it("forwards tools, resources, prompts and completion", async () => {
    expect(client.serverInfo.name).toBe("mcpkit-everything");
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("test_simple_text");
    expect((await client.callTool("test_simple_text")).text()).toBe(
      "This is a simple text response for testing.",
    );
    const failed = await client.callTool("test_error_handling");
    expect(failed.isError).toBe(true);
    const progress: number[] = [];
    await client.callTool("test_tool_with_progress", {}, { onProgress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([0, 50, 100]);
    const read = await client.readResource("test://static-text");
    expect(read.contents[0]).toMatchObject({ text: "This is the content of the static text resource." });
    const templates = await client.listResourceTemplates();
    expect(templates.map((t) => t.uriTemplate)).toContain("test://catalog/{category}/{item}");
    const prompt = await client.getPrompt("test_prompt_with_arguments", { arg1: "x", arg2: "y" });
    expect(JSON.stringify(prompt.messages)).toContain("arg2='y'");
    const categories = await client.complete(
      { type: "ref/resource", uri: "test://catalog/{category}/{item}" },
      { name: "category", value: "" },
    );
    expect(categories.values).toEqual(["fruits", "vegetables"]);
  });

  it("an unknown tool is still -32602, as from the server itself", async () => {
    await expect(client.callTool("no_such_tool")).rejects.toMatchObject({ code: -32602 });
  });

  it("closing the client ends the proxy and leaves nothing running", async () => {
    const pid = (client.transport as unknown as { pid?: number }).pid;
    expect(pid).toBeTypeOf("number");
    await client.close();
    expect(await allGone([pid!])).toBe(true);
  });
});
