/**
 * A multi round-trip request's `requestState` (2026-07-28) belongs to the caller it was issued to:
 * over HTTP with a protected server, another subject, or the same subject through another client,
 * replaying it with answers of its own gets -32602 and the handler does not run; the caller itself
 * completes the request, on this server or on another replica sharing the secret. Tokens are
 * signed with a real authorization server's key and checked against its published keys.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { McpServer } from "../../src/server/index.js";
import { RequestStateSigner } from "../../src/server/sessions/request-state.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import { type AuthServer, startAuthServer } from "../helpers/auth-server.js";

const MODERN = "2026-07-28";
const SECRET = "shared-by-both-replicas";

let as: AuthServer;
beforeAll(async () => {
  as = await startAuthServer();
});
afterAll(async () => {
  await as?.close();
});

/** A protected server whose tool asks who to pay, counting how often its handler starts. */
async function serve(): Promise<{ handle: HttpServerHandle; runs: () => number }> {
  let runs = 0;
  const server = new McpServer({ name: "bank", version: "1" }, { requestStateSecret: SECRET }).tool(
    "transfer",
    {},
    async (_args, ctx) => {
      runs++;
      const answer = await ctx.elicit({
        message: "Pay whom?",
        requestedSchema: { type: "object", properties: { to: { type: "string" } }, required: ["to"] },
      });
      return `paid ${(answer.content as { to: string }).to} for ${ctx.auth?.subject}`;
    },
  );
  const handle = await server.serveHttp({ auth: { issuer: as.issuer } });
  return { handle, runs: () => runs };
}

/** An access token for `subject` through `client`, meant for `resource`. */
function tokenFor(resource: string, subject: string, client: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return as.sign({
    iss: as.issuer,
    sub: subject,
    client_id: client,
    aud: resource,
    iat: now,
    exp: now + 600,
  });
}

interface Reply {
  status: number;
  result?: { resultType?: string; requestState?: string; content?: { text: string }[] };
  error?: { code: number; message: string };
}

/** One round of `transfer`, as a raw stateless request. */
async function call(url: string, token: string, round: Record<string, unknown> = {}): Promise<Reply> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${token}`,
      "mcp-protocol-version": MODERN,
      "mcp-method": "tools/call",
      "mcp-name": "transfer",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "transfer",
        arguments: {},
        ...round,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN,
          "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
          "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
        },
      },
    }),
  });
  const text = await response.text();
  // A JSON body, or one SSE event carrying it.
  const body = JSON.parse(text.startsWith("{") ? text : text.slice(text.indexOf("data:") + 5));
  return { status: response.status, ...body };
}

const answer = (to: string) => ({
  "elicitation/create#1": { action: "accept", content: { to } },
});

describe("requestState is bound to its caller", () => {
  let one: Awaited<ReturnType<typeof serve>>;
  let two: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    [one, two] = await Promise.all([serve(), serve()]);
  });
  afterAll(async () => {
    await Promise.all([one?.handle.close(), two?.handle.close()]);
  });

  it("refuses another subject's replay with -32602, before the handler runs", async () => {
    const url = one.handle.url;
    const alice = await tokenFor(url, "alice", "mcp-app");
    const started = await call(url, alice);
    expect(started.result?.resultType).toBe("input_required");
    const requestState = started.result!.requestState!;
    expect(one.runs()).toBe(1);

    const bob = await tokenFor(url, "bob", "mcp-app");
    const replayed = await call(url, bob, { requestState, inputResponses: answer("bob") });
    // A stateless request's -32602 travels with HTTP 400.
    expect(replayed.status).toBe(400);
    expect(replayed.result).toBeUndefined();
    expect(replayed.error).toEqual({
      code: ErrorCode.InvalidParams,
      message:
        "Invalid params: requestState was issued to another caller (subject and client): start the request again with your own credentials",
    });
    expect(one.runs()).toBe(1);

    const finished = await call(url, alice, { requestState, inputResponses: answer("carol") });
    expect(finished.status).toBe(200);
    expect(finished.error).toBeUndefined();
    expect(finished.result?.content?.[0]?.text).toBe("paid carol for alice");
    expect(one.runs()).toBe(2);
  });

  it("refuses the same subject through another client", async () => {
    const url = one.handle.url;
    const before = one.runs();
    const started = await call(url, await tokenFor(url, "alice", "mcp-app"));
    const requestState = started.result!.requestState!;
    const otherClient = await tokenFor(url, "alice", "other-app");
    const replayed = await call(url, otherClient, { requestState, inputResponses: answer("mallory") });
    expect(replayed.error?.code).toBe(ErrorCode.InvalidParams);
    expect(replayed.error?.message).toContain("issued to another caller");
    expect(one.runs()).toBe(before + 1);
  });

  it("verifies on another replica sharing the secret, for its caller alone", async () => {
    const alice = await tokenFor(one.handle.url, "alice", "mcp-app");
    const started = await call(one.handle.url, alice);
    const requestState = started.result!.requestState!;

    // The state carries no caller in the clear: only a keyed digest.
    const body = Buffer.from(requestState.slice(0, requestState.lastIndexOf(".")), "base64url").toString();
    expect(body).not.toContain("alice");

    const bob = await tokenFor(two.handle.url, "bob", "mcp-app");
    const replayed = await call(two.handle.url, bob, { requestState, inputResponses: answer("bob") });
    expect(replayed.error?.code).toBe(ErrorCode.InvalidParams);
    expect(two.runs()).toBe(0);

    const aliceThere = await tokenFor(two.handle.url, "alice", "mcp-app");
    const finished = await call(two.handle.url, aliceThere, { requestState, inputResponses: answer("dave") });
    expect(finished.result?.content?.[0]?.text).toBe("paid dave for alice");
    expect(two.runs()).toBe(1);
  });
});

describe("RequestStateSigner", () => {
  it("answers a state only for the caller it was signed for, anonymous included", () => {
    const signer = new RequestStateSigner(SECRET);
    const forAlice = signer.sign("tools/call t", { a: 1 }, "alice");
    const anonymous = signer.sign("tools/call t", { a: 2 });
    expect(signer.verify(forAlice, "tools/call t", "alice")).toEqual({ a: 1 });
    expect(signer.verify(anonymous, "tools/call t")).toEqual({ a: 2 });
    expect(() => signer.verify(forAlice, "tools/call t")).toThrow("issued to another caller");
    expect(() => signer.verify(anonymous, "tools/call t", "alice")).toThrow("issued to another caller");
    // Another replica with the same secret knows the same caller.
    expect(new RequestStateSigner(SECRET).verify(forAlice, "tools/call t", "alice")).toEqual({ a: 1 });
  });
});
