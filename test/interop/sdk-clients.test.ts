/**
 * The official TypeScript SDK clients (v1 `@modelcontextprotocol/sdk`, v2 `@modelcontextprotocol/client`)
 * against our server (test/fixtures/tools-server.js, run from dist/ — `npm run build` first) over stdio,
 * at every handshake-era revision. Every message either side sends is checked against that revision's schema.
 */
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Client as ClientV2, ProtocolError } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MessageLog } from "../helpers/spec-schema.js";

const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SERVER = {
  command: process.execPath,
  args: ["test/fixtures/tools-server.js"],
  cwd: ROOT,
  stderr: "pipe" as const,
};
const CLIENT_INFO = { name: "interop-test", version: "0.0.1" };

type Message = Record<string, any>;
interface CallResult {
  content: { type: string; [key: string]: unknown }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}
interface CallOptions {
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  signal?: AbortSignal;
}
/**
 * Wraps an SDK transport: records what the client sends ("client") and receives ("server"), optionally
 * rewrites the version the client offers in `initialize`, and keeps what the SDK reports as negotiated.
 */
class Tap {
  onmessage?: (message: any) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  negotiated: string | undefined;

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
    return this.inner.start();
  }

  /** The stdio transports ignore send options (they route nothing), so they are not passed on. */
  send(message: Message): Promise<void> {
    const out =
      this.offer && message.method === "initialize"
        ? { ...message, params: { ...message.params, protocolVersion: this.offer } }
        : message;
    this.log.record("client", out);
    return this.inner.send(out as never);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Both SDKs call this with the version the server answered, once they accepted it. */
  setProtocolVersion(version: string): void {
    this.negotiated = version;
  }
}

/** What the tests use of either SDK's `Client`. */
interface SdkClient {
  getServerVersion(): unknown;
  getInstructions(): string | undefined;
  listTools(): Promise<{ tools: { name: string; inputSchema: Message; outputSchema?: Message }[] }>;
  close(): Promise<void>;
}
interface Connection {
  tap: Tap;
  client: SdkClient;
  negotiated(): string | undefined;
  call(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallResult>;
}
interface Sdk {
  name: string;
  connect(revision: string, log: MessageLog): Promise<Connection>;
  /** What the SDK rejects with when the server answers `tools/call` with JSON-RPC -32602 (besides code, data). */
  unknownTool: (name: string) => { constructor: unknown; message: string };
}

const SDKS: Sdk[] = [
  {
    name: "SDK v1 (@modelcontextprotocol/sdk 1.32.2)",
    // v1 always offers its LATEST_PROTOCOL_VERSION and has no option to change it: the tap rewrites the
    // offer; the SDK accepts any answer in SUPPORTED_PROTOCOL_VERSIONS and reports it via setProtocolVersion.
    async connect(revision, log) {
      const tap = new Tap(new StdioV1(SERVER), log, revision);
      const client = new ClientV1(CLIENT_INFO);
      await client.connect(tap);
      const call: Connection["call"] = async (name, args, options) =>
        (await client.callTool({ name, arguments: args }, undefined, options)) as CallResult;
      return { tap, client: client as SdkClient, negotiated: () => tap.negotiated, call };
    },
    unknownTool: (name) => ({ constructor: McpError, message: `MCP error -32602: Unknown tool: ${name}` }),
  },
  {
    name: "SDK v2 (@modelcontextprotocol/client 2.4.0)",
    // v2 offers the first pre-2026 entry of `supportedProtocolVersions` and accepts only those.
    async connect(revision, log) {
      const tap = new Tap(new StdioV2(SERVER), log);
      const client = new ClientV2(CLIENT_INFO, { supportedProtocolVersions: [revision] });
      await client.connect(tap);
      const call: Connection["call"] = async (name, args, options) =>
        (await client.callTool({ name, arguments: args }, options)) as CallResult;
      return {
        tap,
        client: client as SdkClient,
        negotiated: () => client.getNegotiatedProtocolVersion(),
        call,
      };
    },
    unknownTool: (name) => ({ constructor: ProtocolError, message: `Unknown tool: ${name}` }),
  },
];

/** Content block types `content` returns that are newer than 2024-11-05, with the revision that added them. */
const CONTENT_SINCE: Record<string, string> = { audio: "2025-03-26", resource_link: "2025-06-18" };

/** Text of the first block, which must be a text block. */
function firstText(result: CallResult): string {
  expect(result.content[0]?.type).toBe("text");
  return result.content[0]!.text as string;
}

describe.each(SDKS)("$name", (sdk) => {
  describe.each(REVISIONS)("at %s", (revision) => {
    const log = new MessageLog();
    const sentBy = (side: "client" | "server") =>
      log.entries.filter((e) => e.direction === side).map((e) => e.message as Message);
    /** The last `tools/call` of `tool` the client sent. */
    const lastCallOf = (tool: string) => sentBy("client").findLast((m) => m.params?.name === tool)!;
    const atLeast = (since: string) => revision >= since;
    let conn: Connection;
    let pid: number;
    let stderr = "";
    let stderrEnded: Promise<unknown>;

    beforeAll(async () => {
      conn = await sdk.connect(revision, log);
      pid = conn.tap.inner.pid!;
      const stream = conn.tap.inner.stderr as Readable;
      stream.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      stderrEnded = new Promise((resolve) => stream.once("end", resolve));
    });
    afterAll(() => conn?.client.close());

    it("negotiates the requested revision", () => {
      expect(sentBy("client")[0]).toMatchObject({
        method: "initialize",
        params: { protocolVersion: revision },
      });
      expect(sentBy("server")[0]).toMatchObject({ result: { protocolVersion: revision } });
      expect(conn.negotiated()).toBe(revision);
      expect(conn.client.getServerVersion()).toEqual({ name: "tools-server", version: "1.2.3" });
      expect(conn.client.getInstructions()).toBe("Interop fixture.");
    });

    it("lists every tool with its input schema", async () => {
      const { tools } = await conn.client.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        "add",
        "console",
        "content",
        "echo",
        "fail",
        "slow",
        "structured",
      ]);
      const schema = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema]));
      const numbers = { a: { type: "number" }, b: { type: "number" } };
      expect(schema.add).toEqual({ type: "object", properties: numbers, required: ["a", "b"] });
      const message = { message: { type: "string" } };
      expect(schema.echo).toMatchObject({ type: "object", properties: message, required: ["message"] });
      for (const name of ["fail", "content", "console"])
        expect(schema[name]).toMatchObject({ type: "object" });
      const steps = { steps: { type: "integer" }, delay: { type: "number" } };
      expect(schema.slow).toMatchObject({ type: "object", properties: steps });
      expect(schema.structured).toMatchObject({ type: "object", properties: { n: { type: "number" } } });
      const squared = { n: { type: "number" }, squared: { type: "number" }, even: { type: "boolean" } };
      // Output schemas exist from 2025-06-18 on; older clients are not sent one.
      if (atLeast("2025-06-18"))
        expect(tools.at(-1)!.outputSchema).toMatchObject({ type: "object", properties: squared });
      else expect(tools.at(-1)!.outputSchema).toBeUndefined();
    });

    it("calls echo and add", async () => {
      expect(firstText(await conn.call("echo", { message: "hello, world" }))).toBe("hello, world");
      expect(firstText(await conn.call("add", { a: 2, b: 40.5 }))).toBe("42.5");
    });

    it("reports a thrown error as an isError result", async () => {
      const result = await conn.call("fail", {});
      expect(result.isError).toBe(true);
      expect(firstText(result)).toBe("deliberate failure");
    });

    it("returns structured output the SDK validates against the output schema", async () => {
      // The SDK checks structuredContent against the listed outputSchema and throws on a mismatch.
      const result = await conn.call("structured", { n: 7 });
      const value = { n: 7, squared: 49, even: false };
      expect(result.isError).toBeFalsy();
      expect(JSON.parse(firstText(result))).toEqual(value);
      if (atLeast("2025-06-18")) expect(result.structuredContent).toEqual(value);
    });

    it("returns one block of each content type, as text where the revision lacks the type", async () => {
      const result = await conn.call("content", {});
      const newer = (type: string) => (atLeast(CONTENT_SINCE[type]!) ? type : "text");
      const types = ["text", "image", newer("audio"), newer("resource_link"), "resource"];
      expect(result.content.map((block) => block.type)).toEqual(types);
      if (!atLeast("2025-03-26"))
        expect(result.content[2]!.text).toMatch(/^\[audio content \(audio\/wav\) omitted/);
      if (!atLeast("2025-06-18")) expect(result.content[3]!.text).toMatch(/^Resource .*: file:\/\//);
      const resource = { uri: "file:///tmp/note.txt", text: "embedded note" };
      expect(result.content[4]).toMatchObject({ resource });
    });

    it("rejects an argument of the wrong type with an isError result naming the field", async () => {
      const result = await conn.call("add", { a: "two", b: 2 });
      expect(result.isError).toBe(true);
      expect(firstText(result)).toMatch(/\ba\b/);
    });

    it("surfaces an unknown tool as JSON-RPC error -32602", async () => {
      const data = { name: "no-such-tool" };
      const expected = expect.objectContaining({ ...sdk.unknownTool(data.name), code: -32602, data });
      await expect(conn.call(data.name, {})).rejects.toEqual(expected);
    });

    it("delivers progress to the SDK's onprogress callback", async () => {
      const seen: [number, number | undefined][] = [];
      const onprogress: CallOptions["onprogress"] = (p) => void seen.push([p.progress, p.total]);
      const result = await conn.call("slow", { steps: 3, delay: 50 }, { onprogress });
      expect(firstText(result)).toBe("done after 3 steps");
      // The SDK asked for progress with a token of its own, and the server sent every step with that
      // token, in order, before the response (as the SDK's transport read them off the wire)...
      const progressToken = lastCallOf("slow").params._meta?.progressToken;
      expect(progressToken).toBeDefined();
      const sent = sentBy("server")
        .filter((m) => m.method === "notifications/progress" && m.params.progressToken === progressToken)
        .map((m) => [m.params.progress, m.params.total]);
      expect(sent).toEqual([1, 2, 3].map((step) => [step, 3]));
      // ...but both SDKs dispatch notifications a microtask later than responses, so a progress
      // notification read in the same chunk as the response is dropped ("unknown token"). On a loaded
      // machine all of them can arrive in that chunk, so what the callback got is only certain to be a
      // prefix, possibly empty. (That the callback does fire is certain in the next test: its call is
      // only stopped by a cancel from onprogress.)
      expect(seen).toEqual(sent.slice(0, seen.length));
    });

    it("stops a cancelled call and sends no response for it", async () => {
      const abort = new AbortController();
      const options = { signal: abort.signal, onprogress: () => abort.abort("enough") };
      await expect(conn.call("slow", { steps: 1000, delay: 20 }, options)).rejects.toBeDefined();
      // Requests are handled in order, so once echo is answered the cancellation has been seen.
      expect(firstText(await conn.call("echo", { message: "still here" }))).toBe("still here");
      const id = lastCallOf("slow").id;
      const cancelled = sentBy("client").filter((m) => m.method === "notifications/cancelled");
      expect(cancelled).toEqual([
        expect.objectContaining({ params: expect.objectContaining({ requestId: id }) }),
      ]);
      expect(sentBy("server").filter((m) => m.id === id)).toEqual([]);
    });

    it("keeps stdout clean when a tool prints", async () => {
      expect(firstText(await conn.call("console", {}))).toBe("quiet");
    });

    it("close leaves no process behind", async () => {
      expect(pid).toBeGreaterThan(0);
      await conn.client.close();
      expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: "ESRCH" }));
      await stderrEnded;
      expect(stderr).toContain("noise\nmore noise\n");
    });

    it("sends only messages of the revision", () => {
      expect(log.problems(revision)).toEqual([]);
    });
  });
});
