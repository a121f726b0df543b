/**
 * The official TypeScript SDK clients (v1 `@modelcontextprotocol/sdk`, v2 `@modelcontextprotocol/client`)
 * against our everything server (`node dist/cli/main.js serve everything` — `npm run build` first) over stdio,
 * at every handshake-era revision: every list/read/get/complete, subscriptions, log levels, the server's
 * requests answered by the SDK's own handlers (sampling, elicitation, roots) and errors. Every message either
 * side sends is checked against that revision's schema.
 */
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Client as ClientV2, ProtocolError, ResourceNotFoundError } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import * as V1 from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SEP1034_SCHEMA, SEP1330_SCHEMA, USER_SCHEMA } from "../../src/servers/everything/client-tools.js";
import { PNG_BASE64, PNG_DATA_URI } from "../../src/servers/everything/media.js";
import { alive } from "../helpers/processes.js";
import { MessageLog } from "../helpers/spec-schema.js";

/** Processes start slowly on a loaded machine: generous limits, never timing assertions. */
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });
const until = (check: () => void) => vi.waitFor(check, { timeout: 30_000, interval: 20 });

const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SERVER = { command: process.execPath, args: ["dist/cli/main.js", "serve", "everything"], cwd: ROOT };
const STDIO = { ...SERVER, stderr: "pipe" as const };
const CLIENT_INFO = { name: "interop-everything", version: "0.0.1" };
const WATCHED = "test://watched-resource";
const ICONS = [{ src: PNG_DATA_URI, mimeType: "image/png", sizes: ["1x1"] }];
const ROOTS = [{ uri: "file:///work/project", name: "project" }, { uri: "file:///tmp/scratch" }];
const REPLY = { role: "assistant", content: { type: "text", text: "Paris" }, model: "test-model" };
/** The handshake-era tools of the everything server, in name order (as listed, among others). */
const TOOLS = (
  "json_schema_2020_12_tool test_audio_content test_elicitation test_elicitation_sep1034_defaults " +
  "test_elicitation_sep1330_enums test_embedded_resource test_error_handling test_image_content " +
  "test_multiple_content_types test_reconnection test_resource_link test_roots test_sampling " +
  "test_simple_text test_tool_with_logging test_tool_with_progress test_update_watched_resource"
).split(" ");
/** What our server lists (src/servers/everything): name | title, if any | description. */
const LISTED: Record<string, string[]> = Object.fromEntries(
  `static-binary | Static Binary Resource | A static binary resource (a 1×1 PNG) for testing
static-text | Static Text Resource | A static text resource for testing
watched-resource | Watched Resource | Changes when the test_update_watched_resource tool runs; subscribe to hear of it
catalog | Catalog Item | An item of a category; completing {item} uses the {category} already chosen
template | Resource Template | A resource template with parameter substitution
test_prompt_with_arguments | Prompt With Arguments | A prompt with required arguments
test_prompt_with_embedded_resource | | A prompt that includes an embedded resource
test_prompt_with_image | | A prompt that includes image content
test_simple_prompt | Simple Prompt | A simple prompt without arguments
test_simple_text | Simple Text | Tests simple text content response
test_sampling | | Tests server-initiated sampling (LLM completion request)`
    .split("\n")
    .map((row) => row.split("|").map((cell) => cell.trim()))
    .map(([name, ...rest]) => [name, rest]),
);
/**
 * Those of a listing this file knows, in the order listed. The everything server also offers what the 2026-07-28
 * scenarios call (src/servers/everything/modern-tools.ts), still growing; those are tested elsewhere.
 */
const known = (items: Message[]) => items.filter((item) => Object.hasOwn(LISTED, item.name));
const WITH_ICONS = ["static-binary", "test_simple_prompt", "test_simple_text"];
const LOGS = ["Tool execution started", "Tool processing data", "Tool execution completed"];

type Message = Record<string, any>;

/** The text of a result's only block, which must be text. */
function textOf(result: Message): string {
  expect(result.content).toEqual([{ type: "text", text: expect.any(String) }]);
  return result.content[0].text;
}

/** Sampling and roots exist in every revision, elicitation from 2025-06-18, `form.applyDefaults` in 2025-11-25. */
function capabilitiesAt(revision: string): Message {
  const elicitation = revision >= "2025-11-25" ? { form: { applyDefaults: true } } : {};
  return { sampling: {}, roots: {}, ...(revision >= "2025-06-18" && { elicitation }) };
}

const ELICIT = "elicitation/create";
const LOG = "notifications/message";
const ANSWERS: Record<string, (peer: Peer) => Message> = {
  "sampling/createMessage": () => REPLY,
  "roots/list": () => ({ roots: ROOTS }),
  [ELICIT]: (peer) => peer.answer,
};
const NOTIFICATIONS = ["notifications/resources/updated", LOG];

/** The client side the tests script: the SDK's handlers, what they answer and what they were given. */
class Peer {
  readonly received: Message[] = [];
  /** What the next elicitation is answered. */
  answer: Message = { action: "cancel" };
  constructor(readonly capabilities: Message) {}
  /** The requests to handle: those the client has the capability for. */
  requests = () => Object.keys(ANSWERS).filter((m) => m !== ELICIT || this.capabilities.elicitation);
  handle = async (request: Message): Promise<any> => {
    this.received.push(request);
    return ANSWERS[request.method]!(this);
  };
  hear = (notification: Message): void => void this.received.push(notification);
  /** The params of what the handlers got of `method`. */
  got = (method: string): Message[] => this.received.filter((m) => m.method === method).map((m) => m.params);
}

/** Records what the client sends and receives; rewrites the version v1 offers (it always offers its latest). */
class Tap {
  onmessage?: (message: any) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  constructor(
    readonly inner: StdioV1 | StdioV2,
    readonly log: MessageLog,
    private readonly offer?: string,
  ) {}
  start(): Promise<void> {
    this.inner.onmessage = (message: Message) => {
      this.log.record("server", message);
      this.onmessage?.(message);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    (this.inner.stderr as Readable | null)?.resume(); // drained, never read
    return this.inner.start();
  }
  send(message: Message): Promise<void> {
    const offer = this.offer && message.method === "initialize";
    const out = offer ? { ...message, params: { ...message.params, protocolVersion: this.offer } } : message;
    this.log.record("client", out);
    return this.inner.send(out as never);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
  setProtocolVersion(): void {}
}

type Lists = "listTools" | "listResources" | "listResourceTemplates" | "listPrompts" | "ping";
type Asks = "readResource" | "getPrompt" | "complete" | "subscribeResource" | "setLoggingLevel" | "callTool";
/** What the tests use of either SDK's `Client`: the same in both (`callTool` given only its params). */
type SdkClient = Record<Lists, () => Promise<Message>> &
  Record<Asks, (params: any) => Promise<Message>> & { close(): Promise<void> };
type ErrorClass = abstract new (...args: any[]) => Error;
interface Sdk {
  name: string;
  connect(revision: string, log: MessageLog, peer: Peer): Promise<{ client: SdkClient; tap: Tap }>;
  /** The class of the SDK's JSON-RPC errors. */
  error: ErrorClass;
  /** What the SDK rejects `resources/read` of an unknown URI with (our server answers -32002). */
  notFound: { type: ErrorClass; code: number };
}

/** v1 registers handlers by the zod schema of the method. */
const V1_SCHEMAS: Record<string, any> = {
  "sampling/createMessage": V1.CreateMessageRequestSchema,
  "roots/list": V1.ListRootsRequestSchema,
  [ELICIT]: V1.ElicitRequestSchema,
  "notifications/resources/updated": V1.ResourceUpdatedNotificationSchema,
  [LOG]: V1.LoggingMessageNotificationSchema,
};

const SDKS: Sdk[] = [
  {
    name: "SDK v1 (@modelcontextprotocol/sdk 1.32.2)",
    async connect(revision, log, peer) {
      const client = new ClientV1(CLIENT_INFO, { capabilities: peer.capabilities });
      for (const method of peer.requests()) client.setRequestHandler(V1_SCHEMAS[method], peer.handle);
      for (const method of NOTIFICATIONS) client.setNotificationHandler(V1_SCHEMAS[method], peer.hear);
      const tap = new Tap(new StdioV1(STDIO), log, revision);
      await client.connect(tap);
      return { client: client as SdkClient, tap };
    },
    error: V1.McpError,
    notFound: { type: V1.McpError, code: -32002 },
  },
  {
    name: "SDK v2 (@modelcontextprotocol/client 2.4.0)",
    async connect(revision, log, peer) {
      const options = { supportedProtocolVersions: [revision], capabilities: peer.capabilities };
      const client = new ClientV2(CLIENT_INFO, options);
      // v2 types handlers per method; `peer` answers each method with its result type.
      for (const method of peer.requests()) client.setRequestHandler(method as "roots/list", peer.handle);
      for (const method of NOTIFICATIONS) client.setNotificationHandler(method as typeof LOG, peer.hear);
      const tap = new Tap(new StdioV2(STDIO), log);
      await client.connect(tap);
      return { client: client as SdkClient, tap };
    },
    // v2 gives resource-not-found the 2026-07-28 code (-32602) on every revision, -32002 received included.
    error: ProtocolError,
    notFound: { type: ResourceNotFoundError, code: -32602 },
  },
];

const CASES = SDKS.flatMap((sdk) => REVISIONS.map((revision) => ({ sdk, revision })));
describe.each(CASES)("$sdk.name at $revision", ({ sdk, revision }) => {
  const log = new MessageLog();
  const peer = new Peer(capabilitiesAt(revision));
  const atLeast = (since: string) => revision >= since;
  /**
   * A case that only means something at some revisions is made only at those: none is reported as
   * skipped for its revision (each revision has its own describe, and the revisions before one
   * feature have a case of their own that it is refused).
   */
  const where = (applies: boolean): ((name: string, test: () => Promise<void>) => void) =>
    applies ? it : () => {};
  const from = (since: string) => where(atLeast(since));
  /** A listed item with its description, and its title (2025-06-18 on) and icons (2025-11-25 on) if any. */
  const listed = (fields: Message): Message => {
    const [title, description] = LISTED[fields.name]!;
    const icons = WITH_ICONS.includes(fields.name) && atLeast("2025-11-25") ? { icons: ICONS } : {};
    return { ...fields, description, ...(title && atLeast("2025-06-18") ? { title } : {}), ...icons };
  };
  /** What the server sent from log entry `start` on: the params of `method`, or (`"error"`) errors. */
  const serverSent = (method: string, start: number) =>
    log.entries.slice(start).flatMap(({ direction, message: m }: Message) => {
      if (direction !== "server") return [];
      return method === "error" ? (m.error ? [m.error] : []) : m.method === method ? [m.params] : [];
    });
  let client: SdkClient;
  let pid: number;
  const call = (name: string, args: Message = {}) => client.callTool({ name, arguments: args });

  beforeAll(async () => {
    const connected = await sdk.connect(revision, log, peer);
    client = connected.client;
    pid = connected.tap.inner.pid!;
  });
  afterAll(() => client?.close());

  it("negotiates the revision", () => {
    const version = { protocolVersion: revision };
    const [offer, answer] = log.entries.map((e) => e.message);
    expect([offer, answer]).toMatchObject([{ params: version }, { result: version }]);
  });

  it("lists every tool", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t: Message) => t.name).filter((name: string) => TOOLS.includes(name))).toEqual(TOOLS);
    const byName = Object.fromEntries(tools.map((t: Message) => [t.name, t]));
    const prompt = { type: "string", description: "The prompt to send to the LLM" };
    const inputSchema = { type: "object", properties: { prompt }, required: ["prompt"] };
    expect(byName.test_sampling).toEqual(listed({ name: "test_sampling", inputSchema }));
    const hints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
    const annotations = atLeast("2025-03-26") ? { annotations: hints } : {}; // tool annotations: 2025-03-26
    const simple = { name: "test_simple_text", inputSchema: { type: "object", properties: {} } };
    expect(byName.test_simple_text).toEqual(listed({ ...simple, ...annotations }));
  });

  it("lists resources and templates with the fields of the revision", async () => {
    const annotations = { audience: ["user", "assistant"], priority: 0.5 };
    expect(known((await client.listResources()).resources)).toEqual([
      listed({ uri: "test://static-binary", name: "static-binary", mimeType: "image/png", size: 70 }),
      listed({ uri: "test://static-text", name: "static-text", mimeType: "text/plain", annotations }),
      listed({ uri: WATCHED, name: "watched-resource", mimeType: "text/plain" }),
    ]);
    const catalog = "test://catalog/{category}/{item}";
    expect(known((await client.listResourceTemplates()).resourceTemplates)).toEqual([
      listed({ uriTemplate: catalog, name: "catalog", mimeType: "text/plain" }),
      listed({ uriTemplate: "test://template/{id}/data", name: "template", mimeType: "application/json" }),
    ]);
  });

  it("reads a text, a binary and a templated resource", async () => {
    const read = async (uri: string) => (await client.readResource({ uri })).contents;
    const text = "This is the content of the static text resource.";
    expect(await read("test://static-text")).toEqual([
      { uri: "test://static-text", mimeType: "text/plain", text },
    ]);
    const png = { uri: "test://static-binary", mimeType: "image/png", blob: PNG_BASE64 };
    expect(await read("test://static-binary")).toEqual([png]);
    const data = JSON.stringify({ id: "123", templateTest: true, data: "Data for ID: 123" });
    const uri = "test://template/123/data";
    expect(await read(uri)).toEqual([{ uri, mimeType: "application/json", text: data }]);
  });

  it("lists the prompts and gets each one with its arguments", async () => {
    const required = (name: string, description: string) => ({ name, description, required: true });
    const withArgs = [required("arg1", "First test argument"), required("arg2", "Second test argument")];
    const resourceUri = [required("resourceUri", "URI of the resource to embed")];
    expect(known((await client.listPrompts()).prompts)).toEqual([
      listed({ name: "test_prompt_with_arguments", arguments: withArgs }),
      listed({ name: "test_prompt_with_embedded_resource", arguments: resourceUri }),
      listed({ name: "test_prompt_with_image" }),
      listed({ name: "test_simple_prompt" }),
    ]);
    /** The prompt's messages; its description is the listed one. */
    const get = async (name: string, args?: Record<string, string>) => {
      const { description, messages } = await client.getPrompt({ name, arguments: args });
      expect(description).toBe(LISTED[name]![1]);
      return messages;
    };
    const user = (content: Message) => ({ role: "user", content });
    const text = (t: string) => user({ type: "text", text: t });
    expect(await get("test_simple_prompt")).toEqual([text("This is a simple prompt for testing.")]);
    const args = { arg1: "alpha", arg2: "beta" };
    const filled = "Prompt with arguments: arg1='alpha', arg2='beta'";
    expect(await get("test_prompt_with_arguments", args)).toEqual([text(filled)]);
    const embedded = "Embedded resource content for testing.";
    const resource = { uri: "test://mine", mimeType: "text/plain", text: embedded };
    expect(await get("test_prompt_with_embedded_resource", { resourceUri: "test://mine" })).toEqual([
      user({ type: "resource", resource }),
      text("Please process the embedded resource above."),
    ]);
    const image = user({ type: "image", data: PNG_BASE64, mimeType: "image/png" });
    expect(await get("test_prompt_with_image")).toEqual([image, text("Please analyze the image above.")]);
  });

  it("completes a prompt argument and template variables", async () => {
    const complete = async (ref: Message, name: string, value: string, context?: Message) => {
      const params = { ref, argument: { name, value }, ...(context && { context }) };
      return (await client.complete(params)).completion.values;
    };
    const prompt = { type: "ref/prompt", name: "test_prompt_with_arguments" };
    expect(await complete(prompt, "arg1", "te")).toEqual(["test", "testValue1", "testing"]);
    expect(await complete(prompt, "arg1", "")).toEqual(["test", "testValue1", "testing", "value"]);
    const template = { type: "ref/resource", uri: "test://template/{id}/data" };
    expect(await complete(template, "id", "")).toEqual(["1", "2", "3", "42", "123"]);
    expect(await complete(template, "id", "4")).toEqual(["42"]);
    const catalog = { type: "ref/resource", uri: "test://catalog/{category}/{item}" };
    expect(await complete(catalog, "category", "v")).toEqual(["vegetables"]);
    if (!atLeast("2025-06-18")) return; // `context` (the arguments already chosen) exists from 2025-06-18
    const chosen = { arguments: { arg1: "x" } };
    expect(await complete(prompt, "arg2", "", chosen)).toEqual(["x-a", "x-b", "testValue2"]);
    const fruits = { arguments: { category: "fruits" } };
    expect(await complete(catalog, "item", "ap", fruits)).toEqual(["apple", "apricot"]);
  });

  it("delivers the update of a subscribed resource to the SDK's handler", async () => {
    const read = async () => (await client.readResource({ uri: WATCHED })).contents[0]!.text;
    await client.subscribeResource({ uri: WATCHED });
    expect(await read()).toBe("Watched resource content, version 1");
    expect(textOf(await call("test_update_watched_resource"))).toBe(`${WATCHED} is now at version 2`);
    await until(() => expect(peer.got("notifications/resources/updated")).toEqual([{ uri: WATCHED }]));
    expect(await read()).toBe("Watched resource content, version 2");
  });

  it("sends logs only at or above the level set", async () => {
    const done = "Tool with logging executed successfully";
    await client.setLoggingLevel("warning");
    const start = log.entries.length;
    expect(textOf(await call("test_tool_with_logging"))).toBe(done);
    await client.ping(); // what the server sent before is dispatched by now
    expect(serverSent(LOG, start)).toEqual([]);
    expect(peer.got(LOG)).toEqual([]);
    await client.setLoggingLevel("debug");
    expect(textOf(await call("test_tool_with_logging"))).toBe(done);
    const expected = LOGS.map((data) => ({ level: "info", logger: "everything", data }));
    expect(serverSent(LOG, start)).toEqual(expected);
    await until(() => expect(peer.got(LOG)).toEqual(expected));
  });

  it("answers sampling and roots/list with the SDK's handlers", async () => {
    const prompt = "What is the capital of France?";
    expect(textOf(await call("test_sampling", { prompt }))).toBe("LLM response (test-model): Paris");
    const asked = { messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens: 100 };
    expect(peer.got("sampling/createMessage")).toEqual([expect.objectContaining(asked)]);
    expect(JSON.parse(textOf(await call("test_roots")))).toEqual(ROOTS);
  });

  /** Calls `tool` with the handler answering `answer`; checks the form asked for; returns the tool's text. */
  async function elicit(tool: string, answer: Message, form: Message, args: Message = {}): Promise<string> {
    peer.answer = answer;
    const result = await call(tool, args);
    expect(result.isError).toBeFalsy();
    expect(peer.got(ELICIT).at(-1)).toMatchObject({ requestedSchema: form });
    return textOf(result);
  }
  const accepted = (content: Message) => `Elicitation accepted: content=${JSON.stringify(content)}`;

  from("2025-06-18")("answers an elicitation with the SDK's handler", async () => {
    const content = { username: "ada", email: "ada@example.com" };
    const args = { message: "Who are you?" };
    const text = await elicit("test_elicitation", { action: "accept", content }, USER_SCHEMA, args);
    expect(text).toBe(accepted(content));
    expect(peer.got(ELICIT).at(-1)).toMatchObject(args);
  });

  from("2025-11-25")("sends SEP-1034 defaults the SDK fills into a partial answer", async () => {
    // The official schema.json types elicitation answer numbers as integers (a known spec inconsistency with
    // `type: "number"` fields, not a bug): every number given here is an integer, and `score` is given so
    // that its default (95.5), which the SDK would fill in, is not sent and the log stays schema-valid.
    const partial = { action: "accept", content: { name: "Ada", age: 36, score: 99 } };
    const filled = { name: "Ada", age: 36, score: 99, status: "active", verified: true };
    const text = await elicit("test_elicitation_sep1034_defaults", partial, SEP1034_SCHEMA);
    expect(text).toBe(accepted(filled));
  });

  from("2025-11-25")("sends SEP-1330 enums and gets the selections back", async () => {
    const single = { untitledSingle: "option2", titledSingle: "value3", legacyEnum: "opt1" };
    const content = { ...single, untitledMulti: ["option1", "option3"], titledMulti: ["value2"] };
    const answer = { action: "accept", content };
    expect(await elicit("test_elicitation_sep1330_enums", answer, SEP1330_SCHEMA)).toBe(accepted(content));
  });

  where(revision === "2025-06-18")("refuses SEP-1034 and SEP-1330 forms (2025-11-25 on)", async () => {
    const asked = peer.got(ELICIT).length;
    const problems = {
      test_elicitation_sep1034_defaults: "default is only allowed on booleans",
      test_elicitation_sep1330_enums: "need revision 2025-11-25",
    };
    for (const [tool, problem] of Object.entries(problems)) {
      const result = await call(tool);
      expect([result.isError, textOf(result)]).toEqual([true, expect.stringContaining(problem)]);
    }
    expect(peer.got(ELICIT)).toHaveLength(asked);
  });

  where(!atLeast("2025-06-18"))("refuses elicitation (2025-06-18 on), then still works", async () => {
    const message = expect.stringContaining(`does not exist in protocol ${revision}`);
    await expect(call("test_elicitation", { message: "hi" })).rejects.toMatchObject({
      code: -32600,
      message,
    });
    await expect(client.ping()).resolves.toEqual({});
    expect(peer.got(ELICIT)).toEqual([]);
  });

  it("surfaces a missing prompt argument as -32602, then still works", async () => {
    const message = expect.stringContaining('Missing required argument "arg2"');
    const get = client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "a" } });
    await expect(get).rejects.toMatchObject({ code: -32602, message });
    await expect(get).rejects.toBeInstanceOf(sdk.error);
    await expect(client.ping()).resolves.toEqual({});
  });

  it("surfaces an unknown resource (-32002 on the wire), then still works", async () => {
    const uri = "test://no-such-resource";
    const start = log.entries.length;
    const read = client.readResource({ uri });
    await expect(read).rejects.toBeInstanceOf(sdk.notFound.type);
    const error = { code: sdk.notFound.code, message: expect.stringContaining(uri) };
    await expect(read).rejects.toMatchObject(error);
    const sent = { code: -32002, message: `Resource not found: ${uri}`, data: { uri } };
    expect(serverSent("error", start)).toEqual([sent]);
    await expect(client.ping()).resolves.toEqual({});
  });

  from("2025-06-18")("reports a declined elicitation as a result, then still works", async () => {
    const text = await elicit("test_elicitation", { action: "decline" }, USER_SCHEMA, { message: "Name?" });
    expect(text).toBe("Elicitation declined by the user (action=decline): no content was provided");
    await expect(client.ping()).resolves.toEqual({});
  });

  it("close leaves no process behind", async () => {
    await client.close();
    await until(() => expect(alive(pid), "the server process is alive").toBe(false));
  });

  it("sends only messages of the revision", () => {
    expect(log.problems(revision)).toEqual([]);
  });
});
