/**
 * Every HTTP way into a server is protected the same: the web handler `server.fetch` (with its
 * public `resource`) and the legacy HTTP+SSE transport beside `serveHttp`'s endpoint, with tokens
 * from a real authorization server. Nothing runs for a refused request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServer } from "../../../src/server/index.js";
import type { HttpServerHandle } from "../../../src/transports/http/server/index.js";
import { type AuthServer, OTHER_AGENT, startAuthServer } from "../../helpers/auth-server.js";
import { initializeRequest } from "../../helpers/initialize.js";

const INITIALIZE = initializeRequest();
const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

let as: AuthServer;
beforeAll(async () => {
  as = await startAuthServer();
});
afterAll(async () => {
  await as?.close();
});

/** A server whose tools record that they ran. */
function newServer(ran: string[], options: ConstructorParameters<typeof McpServer>[1] = {}) {
  return new McpServer({ name: "protected", version: "1" }, options)
    .tool("echo", { input: { type: "object", properties: { text: { type: "string" } } } }, ({ text }) => {
      ran.push("echo");
      return String(text);
    })
    .tool("write_file", { scopes: ["files:write"] }, () => {
      ran.push("write_file");
      return "written";
    });
}

describe("server.fetch", () => {
  const resource = "https://mcp.example.test/mcp";
  const ran: string[] = [];
  let server: McpServer;

  beforeAll(() => {
    server = newServer(ran, { http: { auth: { issuer: as.issuer, resource } } });
  });
  afterAll(() => server.close());

  const post = (headers: Record<string, string> = {}) =>
    server.fetch(
      new Request(resource, {
        method: "POST",
        headers: { ...JSON_HEADERS, ...headers },
        body: JSON.stringify(INITIALIZE),
      }),
    );

  it("answers 401 naming the metadata at the resource's public URL, and serves that metadata", async () => {
    const refused = await post();
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe(
      'Bearer resource_metadata="https://mcp.example.test/.well-known/oauth-protected-resource/mcp"',
    );
    const metadata = await server.fetch(
      new Request("https://mcp.example.test/.well-known/oauth-protected-resource/mcp"),
    );
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({ resource, authorization_servers: [as.issuer] });
  });

  it("serves a caller whose token names the resource", async () => {
    const token = await as.token({ resource, scope: "mcp:tools" });
    const response = await post({ authorization: `Bearer ${token}` });
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).result.serverInfo.name).toBe("protected");
    expect(ran).toEqual([]);
  });

  it("refuses to start without the resource's URI, which a web handler cannot know", async () => {
    const bare = new McpServer({ name: "bare", version: "1" }, { http: { auth: { issuer: as.issuer } } });
    await expect(bare.fetch(new Request(resource, { method: "POST" }))).rejects.toThrow(
      /give auth a resource/,
    );
    await bare.close();
  });
});

describe("the legacy HTTP+SSE transport", () => {
  const ran: string[] = [];
  let handle: HttpServerHandle;
  let origin: string;
  let resource: string;

  beforeAll(async () => {
    handle = await newServer(ran).serveHttp({
      legacySse: true,
      auth: { issuer: as.issuer, scopes: ["mcp:tools"] },
    });
    origin = new URL(handle.url).origin;
    resource = handle.url;
  });
  afterAll(() => handle?.close());

  /** Opens the event stream; its `endpoint` event and a reader of the next message. */
  async function open(token: string) {
    const response = await fetch(`${origin}/sse`, {
      headers: { accept: "text/event-stream", authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    const next = async (event: string): Promise<string> => {
      for (;;) {
        // A `message` event is written without its event line.
        const match = new RegExp(
          `${event === "message" ? "^" : `event: ${event}\\n`}data: (.*)\\n\\n`,
          "m",
        ).exec(text);
        if (match) {
          text = text.slice(match.index + match[0].length);
          return match[1]!;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("the stream ended");
        text += value;
      }
    };
    const endpoint = await next("endpoint");
    return { endpoint: new URL(endpoint, origin).href, next, close: () => reader.cancel() };
  }

  const postTo = (url: string, token: string | undefined, body: object) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });

  it("answers 401 to a stream opened without a token", async () => {
    const response = await fetch(`${origin}/sse`, { headers: { accept: "text/event-stream" } });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"`,
    );
  });

  it("serves the caller who opened the session, and no one else", async () => {
    const alice = await as.token({ resource, scope: "mcp:tools" });
    const mallory = await as.token({ resource, scope: "mcp:tools files:write", client: OTHER_AGENT });
    const session = await open(alice);
    const call = {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "write_file", arguments: {} },
    };

    expect((await postTo(session.endpoint, undefined, INITIALIZE)).status).toBe(401);
    expect((await postTo(session.endpoint, mallory, INITIALIZE)).status).toBe(404);
    expect((await postTo(session.endpoint, mallory, call)).status).toBe(404);
    expect(ran).toEqual([]);

    expect((await postTo(session.endpoint, alice, INITIALIZE)).status).toBe(202);
    expect(JSON.parse(await session.next("message")).result.serverInfo.name).toBe("protected");
    await postTo(session.endpoint, alice, { jsonrpc: "2.0", method: "notifications/initialized" });

    const forbidden = await postTo(session.endpoint, alice, call);
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get("www-authenticate")).toContain('scope="mcp:tools files:write"');
    expect(ran).toEqual([]);

    const echo = {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "hi" } },
    };
    expect((await postTo(session.endpoint, alice, echo)).status).toBe(202);
    expect(JSON.parse(await session.next("message")).result.content).toEqual([{ type: "text", text: "hi" }]);
    expect(ran).toEqual(["echo"]);
    await session.close();
  });
});
