/**
 * Interop: our `McpClient` against every tool, resource, template, prompt, completion, subscription and log
 * of the official `server-everything` over stdio. Every message must fit the negotiated revision's JSON
 * Schema; after `close()` the server's process group must be gone.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ClientEvents, McpClient, type StdioClientOptions } from "../../src/client/index.js";
import type { Progress } from "../../src/protocol/types/base.js";
import type * as F from "../../src/protocol/types/client-features.js";
import type { CompleteReference } from "../../src/protocol/types/completion.js";
import type { CallToolResult } from "../../src/protocol/types/tools.js";
import type { StdioClientTransport } from "../../src/transports/stdio/index.js";
import { alive, groupMembers } from "../helpers/processes.js";
import { MessageLog } from "../helpers/spec-schema.js";

const NODE_MODULES = new URL("../../node_modules/", import.meta.url);
const DIST = fileURLToPath(new URL("@modelcontextprotocol/server-everything/dist", NODE_MODULES));
/** Processes on a loaded machine start slowly: generous limits, never timing assertions. */
const SLOW = 120_000;
/** The longest wait for what the server sends on its own (its timers tick every 5 s). */
const WAIT = 30_000;
const REPLY = { role: "assistant", content: { type: "text", text: "Paris" }, model: "m" } as const;

/** Just enough of a JSON-RPC message to look into the log. */
type Message = { method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };
/** A content block or resource contents, to look into. */
type Loose = Record<string, any>;

/** Every client not finished yet, with its message log and its server's pid. */
const open = new Map<McpClient, { log: MessageLog; pid: number }>();
afterEach(async () => {
  for (const client of open.keys()) await client.close(); // a test failed before finish()
  open.clear();
});

async function connect(features: Partial<StdioClientOptions> = {}): Promise<McpClient> {
  const log = new MessageLog();
  const client = await McpClient.connect({
    ...features,
    command: process.execPath,
    args: [path.join(DIST, "index.js"), "stdio"],
    handshakeTimeout: 60_000,
    requestTimeout: 60_000,
    trace: (direction, message) => log.record(direction === "send" ? "client" : "server", message),
  });
  open.set(client, { log, pid: (client.transport as StdioClientTransport).pid! });
  return client;
}

/** Closes, then checks the server's process group is gone and every message conformed. */
async function finish(client: McpClient): Promise<void> {
  const { log, pid } = open.get(client)!;
  open.delete(client);
  await client.close();
  expect([alive(pid), groupMembers(pid)]).toEqual([false, []]);
  expect(log.problems(client.protocolVersion)).toEqual([]);
}

/** The messages one side sent, only those of `method` if given. */
function sent(client: McpClient, side: "client" | "server", method?: string): Message[] {
  const { entries } = open.get(client)!.log;
  const messages = entries.filter((e) => e.direction === side).map((e) => e.message as Message);
  return messages.filter((m) => method === undefined || m.method === method);
}

/** Every `event` from now on. */
function collect<K extends keyof ClientEvents>(client: McpClient, event: K): ClientEvents[K][] {
  const seen: ClientEvents[K][] = [];
  client.on(event, (value) => seen.push(value));
  return seen;
}
/** Retries `check` until it passes: for what the server sends on its own; bounded, no timing asserted. */
const until = (check: () => void) => vi.waitFor(check, { timeout: WAIT, interval: 20 });

const texts = (result: { content: Loose[] }): (string | undefined)[] => result.content.map((c) => c.text);
const decode = (base64: unknown) => Buffer.from(String(base64), "base64");
/** The JSON the elicitation tools append as "Raw result: …". */
const raw = (text?: string) => JSON.parse(String(text).replace(/^\n(Progress:[\s\S]*\n)?Raw result: /, ""));

describe("server-everything: every primitive over stdio", { timeout: SLOW }, () => {
  it("calls every tool that needs no client feature", async () => {
    const client = await connect({ env: { MCPKIT_PROBE: "everything" } });
    const echo = await client.callTool("echo", { message: "hé" });
    expect(echo.content).toEqual([{ type: "text", text: "Echo: hé" }]);
    const sum = await client.callTool("get-sum", { a: 2, b: 40.5 });
    expect(sum.text()).toBe("The sum of 2 and 40.5 is 42.5.");
    expect(JSON.parse((await client.callTool("get-env")).text()).MCPKIT_PROBE).toBe("everything");

    const annotated = [
      ["error", "Error: Operation failed", 1, ["user", "assistant"]],
      ["success", "Operation completed successfully", 0.7, ["user"]],
      ["debug", "Debug: Cache hit ratio 0.95, latency 150ms", 0.3, ["assistant"]],
    ] as const;
    for (const [messageType, text, priority, audience] of annotated) {
      const { content } = await client.callTool("get-annotated-message", { messageType, includeImage: true });
      expect(content[0]).toEqual({ type: "text", text, annotations: { priority, audience } });
      expect(content[1]).toMatchObject({ type: "image", annotations: { priority: 0.5, audience: ["user"] } });
    }
    const image = await client.callTool("get-tiny-image");
    const captions = ["Here's the image you requested:", undefined, "The image above is the MCP logo."];
    expect(texts(image)).toEqual(captions);
    expect(image.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(decode((image.content[1] as Loose).data).toString("latin1", 1, 4)).toBe("PNG");

    // Odd ids are blobs, yet text/plain too, so the server describes every link as plaintext.
    const links = await client.callTool("get-resource-links", { count: 3 });
    expect(links.content).toEqual([
      { type: "text", text: "Here are 3 resource links to resources available in this server:" },
      ...[1, 2, 3].map((id) => ({
        type: "resource_link",
        uri: `demo://resource/dynamic/${id % 2 ? "blob" : "text"}/${id}`,
        name: `${id % 2 ? "Blob" : "Text"} Resource ${id}`,
        description: `Resource ${id}: plaintext resource`,
        mimeType: "text/plain",
      })),
    ]);
    for (const resourceType of ["Text", "Blob"]) {
      const uri = `demo://resource/dynamic/${resourceType.toLowerCase()}/7`;
      const ref = await client.callTool("get-resource-reference", { resourceType, resourceId: 7 });
      const intro = "Returning resource reference for Resource 7:";
      expect(texts(ref)).toEqual([intro, undefined, `You can access this resource using the URI: ${uri}`]);
      const { resource } = ref.content[1] as Loose;
      expect(resource).toMatchObject({ uri, mimeType: "text/plain" });
      expect(resource.text ?? decode(resource.blob).toString()).toMatch(/^Resource 7: This is a /);
    }
    const weather = await client.callTool("get-structured-content", { location: "Chicago" });
    const chicago = { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 };
    expect([weather.structuredContent, JSON.parse(weather.text())]).toEqual([chicago, chicago]);

    const progress: Progress[] = [];
    const onProgress = (p: Progress) => progress.push(p);
    const args = { duration: 0.2, steps: 2 };
    const long = await client.callTool("trigger-long-running-operation", args, { onProgress });
    expect(long.text()).toBe("Long running operation completed. Duration: 0.2 seconds, Steps: 2.");
    expect(progress).toEqual([1, 2].map((n) => ({ progress: n, total: 2 })));
    // The task-only tool called plainly: the SDK turns its -32601 into a tool error.
    const plain = await client.callTool("simulate-research-query", { topic: "x" });
    expect(plain.isError).toBe(true);
    expect(plain.text()).toMatch(/^MCP error -32601: Tool simulate-research-query requires task augm/);
    await finish(client); // gzip-file-as-resource and the two toggles: in their own tests below
  });

  it("answers elicitation: accept, decline, URL mode, the -32042 error path", async () => {
    let form: F.ElicitResult = { action: "decline" };
    const asked: F.ElicitRequestParams[] = [];
    const handler = (params: F.ElicitRequestParams): F.ElicitResult => {
      asked.push(params);
      return params.mode === "url" ? { action: "accept" } : form;
    };
    const client = await connect({ elicitation: { handler, url: true } });
    // `number` is given: its default, 3.14, is no integer as the 2025-11-25 JSON Schema wants (see report).
    const given = { name: "Ada", check: true, email: "ada@example.com", integer: 7, number: 12 };
    form = { action: "accept", content: given };
    const accepted = texts(await client.callTool("trigger-elicitation-request"));
    expect(asked[0]).toMatchObject({ message: "Please provide inputs for the following fields:" });
    expect(accepted[0]).toBe("✅ User provided the requested information!");
    const inputs = "- Name: Ada\n- Agreed to terms: true\n- Email: ada@example.com\n- Favorite Integer: 7";
    expect(accepted[1]).toBe(`User inputs:\n${inputs}\n- Favorite Number: 12`);
    // SEP-1034: the client filled in the defaults of the fields the user left out.
    const { content } = raw(accepted[2]);
    expect(Object.keys(content)).toHaveLength(Object.keys(given).length + 6);
    expect(content).toMatchObject({ ...given, firstLine: "It was a dark and stormy night." });
    expect(content).toMatchObject({ untitledMultipleSelectEnum: ["Guitar"], legacyTitledEnum: "pet-1" });
    form = { action: "decline" };
    const declined = texts(await client.callTool("trigger-elicitation-request"));
    expect(declined[0]).toBe("❌ User declined to provide the requested information.");
    expect(raw(declined[1])).toEqual({ action: "decline" });

    const args = { url: "https://example.com/authorize", elicitationId: "mcpkit-1" };
    const done = `✅ User completed the URL elicitation flow.\nElicitation ID: mcpkit-1\nURL: ${args.url}`;
    expect(texts(await client.callTool("trigger-url-elicitation", args))[0]).toBe(done);
    const message = "Please open the link to complete this action.";
    expect(asked[2]).toEqual({ mode: "url", message, ...args });
    const needed = { mode: "url", url: "https://modelcontextprotocol.io", elicitationId: expect.any(String) };
    const viaError = { ...args, errorPath: true };
    await expect(client.callTool("trigger-url-elicitation", viaError)).rejects.toMatchObject({
      code: -32042,
      message: "MCP error -32042: This request requires browser-based authorization.",
      data: { elicitations: [needed] },
    });
    // Retried after the prerequisite, the call takes the request path.
    expect(texts(await client.callTool("trigger-url-elicitation", viaError))[0]).toBe(done);
    await finish(client);
  });

  it("gives its roots; after setRoots() the server lists them again", async () => {
    const a = { uri: "file:///tmp/mcpkit-a", name: "A" };
    const client = await connect({ roots: [a] });
    // The server asks 350 ms after `initialized`, then logs; the message log holds all since connect.
    const logs = () => sent(client, "server", "notifications/message").map((m) => m.params);
    const synced = (n: number) => () =>
      expect(logs().map((log) => log?.data)).toContain(`Roots updated: ${n} root(s) received from client`);
    await until(synced(1));
    const one = "Current MCP Roots (1 total):\n\n1. A\n   URI: file:///tmp/mcpkit-a\n\nNote: This server";
    expect((await client.callTool("get-roots-list")).text().slice(0, one.length)).toBe(one);
    client.setRoots([a, { uri: "file:///tmp/mcpkit-b" }]);
    await until(synced(2));
    expect(logs().at(-1)).toMatchObject({ level: "info", logger: "everything-server" });
    expect(sent(client, "client", "notifications/roots/list_changed")).toHaveLength(1);
    expect(sent(client, "server", "roots/list")).toHaveLength(2);
    const two = "1. A\n   URI: file:///tmp/mcpkit-a\n\n2. Unnamed Root\n   URI: file:///tmp/mcpkit-b\n\n";
    expect((await client.callTool("get-roots-list")).text()).toContain(`(2 total):\n\n${two}`);
    await finish(client);
  });

  it("runs the task-based research tool; its elicitation comes during tasks/result", async () => {
    const asked: F.ElicitRequestParams[] = [];
    const elicitation = (params: F.ElicitRequestParams): F.ElicitResult => {
      asked.push(params);
      return { action: "accept", content: { interpretation: "snake" } };
    };
    const client = await connect({ elicitation });
    const args = { topic: "Python", ambiguous: true };
    const call = { name: "simulate-research-query", arguments: args, task: { ttl: 60_000 } };
    const { task } = await client.request<{ task: { taskId: string } }>("tools/call", call);
    expect(task).toMatchObject({ taskId: expect.any(String), status: "working", pollInterval: 1000 });
    const { taskId } = task;
    const status = expect.stringMatching(/^(working|input_required)$/);
    expect(await client.request("tasks/get", { taskId })).toMatchObject({ taskId, status });
    const result = await client.request<CallToolResult>("tasks/result", { taskId });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toMatch(/^The research query "Python" could have multiple interpretations/);
    const [report] = texts(result);
    expect(report).toMatch(/^# Research Report: Python \(snake\)\n/);
    expect(report).toContain("\n- **Clarification**: snake\n");
    const statuses = sent(client, "server", "notifications/tasks/status").map((m) => m.params?.status);
    expect(statuses).toEqual(expect.arrayContaining(["working", "input_required"]));
    await finish(client);
  });

  it("gives a full client all 19 tools; answers sampling, and the async tools' requests as tasks", async () => {
    const asked: F.CreateMessageRequestParams[] = [];
    const sampling = (params: F.CreateMessageRequestParams) => {
      asked.push(params);
      return REPLY;
    };
    const tasks = { requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } };
    const elicitation = { handler: (): F.ElicitResult => ({ action: "cancel" }), url: true };
    const client = await connect({ sampling, elicitation, roots: [], capabilities: { tasks } });
    const names = `echo get-annotated-message get-env get-resource-links get-resource-reference
      get-roots-list get-structured-content get-sum get-tiny-image gzip-file-as-resource
      simulate-research-query toggle-simulated-logging toggle-subscriber-updates trigger-elicitation-request
      trigger-elicitation-request-async trigger-long-running-operation trigger-sampling-request
      trigger-sampling-request-async trigger-url-elicitation`;
    expect((await client.listTools()).map((tool) => tool.name).sort()).toEqual(names.split(/\s+/));

    const args = { prompt: "Capital?", maxTokens: 25 };
    const result = (await client.callTool("trigger-sampling-request", args)).text();
    expect(result).toMatch(/^LLM sampling result: \n\{/);
    expect(JSON.parse(result.replace("LLM sampling result: \n", ""))).toEqual(REPLY);
    const text = "Resource trigger-sampling-request context: Capital?";
    const messages = [{ role: "user", content: { type: "text", text } }];
    const systemPrompt = "You are a helpful test server.";
    expect(asked).toEqual([{ messages, systemPrompt, maxTokens: 25, temperature: 0.7 }]);

    const requests = sent(client, "server").filter((m) => /\/create(Message)?$/.test(m.method ?? ""));
    expect(requests.map((m) => m.params?.task)).toEqual([undefined]);
    await finish(client);

    // The async tools ask as tasks, which the client's own handlers run (clientTasks).
    const answer = { action: "accept", content: { name: "Ada", favoriteColor: "Green", agreeToTerms: true } };
    const tasked = await connect({
      sampling: () => REPLY,
      elicitation: () => answer as F.ElicitResult,
      roots: [],
      clientTasks: true,
    });
    const sampled = (await tasked.callTool("trigger-sampling-request-async", { prompt: "Capital?" })).text();
    const created = sent(tasked, "client").flatMap((m) => {
      const task = m.result?.task as { taskId?: string } | undefined;
      return task?.taskId ? [task.taskId] : [];
    });
    const progress = `**Progress:**\nTask created: ${created[0]}\nPoll 1: completed`;
    // tasks/result ties the result to its task.
    const related = { "io.modelcontextprotocol/related-task": { taskId: created[0] } };
    const reply = JSON.stringify({ _meta: related, ...REPLY }, null, 2);
    expect(sampled).toBe(`[COMPLETED] Async sampling completed!\n\n${progress}\n\n**Result:**\n${reply}`);
    const elicited = texts(await tasked.callTool("trigger-elicitation-request-async"));
    expect(elicited[0]).toBe("[COMPLETED] User provided the requested information!");
    expect(elicited[1]).toBe("User inputs:\n- Name: Ada\n- Favorite Color: Green\n- Agreed to terms: true");
    const second = sent(tasked, "client").flatMap((m) => {
      const task = m.result?.task as { taskId?: string } | undefined;
      return task?.taskId ? [task.taskId] : [];
    })[1];
    expect(elicited[2]).toContain(`\nProgress:\nTask created: ${second}\nPoll 1: completed\n\nRaw result: `);
    expect(raw(elicited[2])).toMatchObject(answer);
    const asTasks = sent(tasked, "server").filter((m) => /\/create(Message)?$/.test(m.method ?? ""));
    expect(asTasks.map((m) => m.params?.task)).toEqual([{ ttl: 300_000 }, { ttl: 600_000 }]);
    await finish(tasked);
  });

  it("lists and reads resources and templates, and a gzip session resource", async () => {
    const client = await connect();
    const docs = fs.readdirSync(path.join(DIST, "docs"));
    const doc = (name: string) => ({
      uri: `demo://resource/static/document/${encodeURIComponent(name)}`,
      name,
      mimeType: "text/markdown",
      description: `Static document file exposed from /docs: ${name}`,
    });
    const resources = await client.listResources();
    expect(resources).toHaveLength(docs.length);
    expect(resources).toEqual(expect.arrayContaining(docs.map(doc)));
    // Every page followed (this version serves one): a request per answer, the last without nextCursor.
    const pages = sent(client, "server").filter((m) => Array.isArray(m.result?.resources));
    expect(pages.at(-1)?.result?.nextCursor).toBeUndefined();
    expect(sent(client, "client", "resources/list")).toHaveLength(pages.length);

    const templates = (await client.listResourceTemplates()).map((t) => [t.name, t.uriTemplate, t.mimeType]);
    expect(templates).toEqual([
      ["Dynamic Text Resource", "demo://resource/dynamic/text/{resourceId}", "text/plain"],
      ["Dynamic Blob Resource", "demo://resource/dynamic/blob/{resourceId}", "application/octet-stream"],
    ]);
    const read = async (uri: string) => (await client.readResource(uri)).contents as Loose[];
    const { uri } = doc("features.md");
    const markdown = fs.readFileSync(path.join(DIST, "docs", "features.md"), "utf8");
    expect(await read(uri)).toEqual([{ uri, mimeType: "text/markdown", text: markdown }]);
    const [text] = await read("demo://resource/dynamic/text/5");
    expect(text).toMatchObject({ uri: "demo://resource/dynamic/text/5", mimeType: "text/plain" });
    expect(text?.text).toMatch(/^Resource 5: This is a plaintext resource created at /);
    const [blob] = await read("demo://resource/dynamic/blob/6");
    expect(blob).toMatchObject({ uri: "demo://resource/dynamic/blob/6", mimeType: "text/plain" });
    expect(decode(blob?.blob).toString()).toMatch(/^Resource 6: This is a base64 blob created at /);
    const notFound = { code: -32602, message: "MCP error -32602: Resource demo://nope not found" };
    await expect(client.readResource("demo://nope")).rejects.toMatchObject(notFound);

    const original = "mcpkit gzip ✓\n".repeat(20);
    const data = `data:text/plain;base64,${Buffer.from(original).toString("base64")}`;
    const gz = { uri: "demo://resource/session/hello.gz", mimeType: "application/gzip" };
    const changed = collect(client, "resourcesListChanged");
    const linked = await client.callTool("gzip-file-as-resource", { name: "hello.gz", data });
    expect(linked.content).toEqual([{ type: "resource_link", name: "hello.gz", ...gz }]);
    await until(() => expect(changed).toHaveLength(1));
    expect((await client.listResources()).map((r) => r.uri)).toContain(gz.uri);
    const [compressed] = await read(gz.uri);
    expect(compressed).toMatchObject(gz);
    expect(gunzipSync(decode(compressed?.blob)).toString()).toBe(original);
    const args = { name: "hello.gz", data, outputType: "resource" };
    const [embedded] = (await client.callTool("gzip-file-as-resource", args)).content as Loose[];
    expect(embedded).toMatchObject({ type: "resource", resource: gz });
    expect(gunzipSync(decode(embedded?.resource?.blob)).toString()).toBe(original);
    await finish(client);
  });

  it("gets every prompt (a missing required argument is -32602) and completes arguments", async () => {
    const client = await connect();
    const prompts = await client.listPrompts();
    const shapes = prompts.map((p) => [p.name, p.arguments?.map((a) => a.name + (a.required ? "*" : ""))]);
    expect(shapes).toEqual([
      ["simple-prompt", undefined],
      ["args-prompt", ["city*", "state"]],
      ["completable-prompt", ["department*", "name*"]],
      ["resource-prompt", ["resourceType*", "resourceId*"]],
    ]);
    const user = (text: string) => ({ role: "user", content: { type: "text", text } });
    const get = async (name: string, args?: Record<string, string>) =>
      (await client.getPrompt(name, args)).messages;
    expect(await get("simple-prompt")).toEqual([user("This is a simple prompt without arguments.")]);
    expect(await get("args-prompt", { city: "Lyon" })).toEqual([user("What's weather in Lyon?")]);
    expect(await get("args-prompt", { city: "Ur", state: "Q" })).toEqual([user("What's weather in Ur, Q?")]);
    const promoted = await get("completable-prompt", { department: "Sales", name: "Eve" });
    expect(promoted).toEqual([user("Please promote Eve to the head of the Sales team.")]);
    const [intro, embedded] = await get("resource-prompt", { resourceType: "Blob", resourceId: "2" });
    const about = "This prompt includes the Blob resource with id: 2. Please analyze the following resource:";
    expect(intro).toEqual(user(about));
    const blob = { mimeType: "text/plain", blob: expect.any(String) };
    const resource = { uri: "demo://resource/dynamic/blob/2", ...blob };
    expect(embedded).toEqual({ role: "user", content: { type: "resource", resource } });
    const invalid = "Invalid input: expected string, received undefined at city";
    const message = `MCP error -32602: Invalid arguments for prompt args-prompt: ${invalid}`;
    const missing = { code: -32602, message, data: undefined };
    await expect(client.getPrompt("args-prompt", { state: "Q" })).rejects.toMatchObject(missing);
    const unknown = { code: -32602, message: "MCP error -32602: Prompt no-such-prompt not found" };
    await expect(client.getPrompt("no-such-prompt")).rejects.toMatchObject(unknown);

    expect(client.capabilities.completions).toEqual({});
    const values = (...v: string[]) => ({ values: v, total: v.length, hasMore: false });
    const complete = (ref: CompleteReference, name: string, value: string, ctx?: Record<string, string>) =>
      client.complete(ref, { name, value }, ctx);
    const team = { type: "ref/prompt", name: "completable-prompt" } as const;
    expect(await complete(team, "department", "S")).toEqual(values("Sales", "Support"));
    const leads = values("Alice", "Bob", "Charlie");
    expect(await complete(team, "name", "", { department: "Engineering" })).toEqual(leads);
    expect(await complete(team, "name", "B")).toEqual(values()); // no department chosen yet
    const byType = { type: "ref/prompt", name: "resource-prompt" } as const;
    expect(await complete(byType, "resourceType", "")).toEqual(values("Text", "Blob"));
    const template = { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" } as const;
    expect(await complete(template, "resourceId", "42")).toEqual(values("42"));
    expect(await complete(template, "resourceId", "x")).toEqual(values());
    await finish(client);
  });

  it("subscribes (resourceUpdated arrives once updates are on) and logs at the level set", async () => {
    const client = await connect();
    const logs = collect(client, "log");
    const updates = collect(client, "resourceUpdated");
    const uri = "demo://resource/dynamic/text/1";
    // The server logs each (un)subscription before it answers: a log it sends precedes the answer.
    await client.setLoggingLevel("info");
    await client.subscribeResource(uri);
    expect(logs).toEqual([{ level: "info", data: `Received Subscribe Resource request for URI: ${uri} ` }]);
    const on = (await client.callTool("toggle-subscriber-updates")).text();
    expect(on).toMatch(/^Started simulated resource updated notifications for session undefined at a 5/);
    await until(() => expect(updates).toContainEqual({ uri }));
    await client.setLoggingLevel("emergency");
    await client.unsubscribeResource(uri);
    expect(logs).toHaveLength(1);
    const off = (await client.callTool("toggle-subscriber-updates")).text();
    expect(off).toBe("Stopped simulated resource updates for session undefined");

    await client.setLoggingLevel("debug");
    const started = (await client.callTool("toggle-simulated-logging")).text();
    expect(started).toMatch(/^Started simulated, random-leveled logging for session undefined at a 5/);
    await until(() => expect(logs.length).toBeGreaterThan(1)); // more come every 5 s
    const { level, data } = logs[1] ?? { level: "" };
    const Level = level.charAt(0).toUpperCase() + level.slice(1);
    expect([`${Level}-level message`, `${Level} level-message`]).toContain(data); // sic "Alert level-message"
    const stopped = (await client.callTool("toggle-simulated-logging")).text();
    expect(stopped).toBe("Stopped simulated logging for session undefined");
    await finish(client);
  });
});
