/**
 * A server protected with `serveHttp({ auth })`, called with raw HTTP in both eras, with tokens a
 * real authorization server (oidc-provider) issued or signed: every way a request's credentials can
 * fall short gets the status and `WWW-Authenticate` challenge the MCP spec, RFC 6750 and RFC 9449
 * say, and no handler runs and no session opens for any of them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServer } from "../../../src/server/index.js";
import type { HttpServerHandle } from "../../../src/transports/http/server/index.js";
import { type AuthServer, dpopProof, newDpopKey, startAuthServer } from "../../helpers/auth-server.js";
import { initializeRequest } from "../../helpers/initialize.js";

const MODERN = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};
const INITIALIZE = initializeRequest();

let as: AuthServer;
let handle: HttpServerHandle;
let resource: string;
let metadataUrl: string;
/** Every handler that ran, by name. */
const ran: string[] = [];

beforeAll(async () => {
  as = await startAuthServer();
  const server = new McpServer({ name: "protected", version: "1" })
    .tool("echo", { input: { type: "object", properties: { text: { type: "string" } } } }, ({ text }) => {
      ran.push("echo");
      return String(text);
    })
    .tool("write_file", { scopes: ["files:write"] }, () => {
      ran.push("write_file");
      return "written";
    });
  handle = await server.serveHttp({ auth: { issuer: as.issuer, scopes: ["mcp:tools"] } });
  resource = handle.url;
  metadataUrl = `${new URL(resource).origin}/.well-known/oauth-protected-resource/mcp`;
});

afterAll(async () => {
  await handle?.close();
  await as?.close();
});

const now = () => Math.floor(Date.now() / 1000);

/** The claims of a good token for this server, to change one at a time. */
const claims = (extra: Record<string, unknown> = {}) => ({
  iss: as.issuer,
  sub: "alice",
  client_id: "agent",
  aud: resource,
  scope: "mcp:tools",
  iat: now(),
  exp: now() + 600,
  ...extra,
});

function post(body: object | object[], headers: Record<string, string> = {}): Promise<Response> {
  return fetch(resource, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** A stateless (2026-07-28) tool call. */
function callModern(name: string, headers: Record<string, string>): Promise<Response> {
  return post(
    { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: {}, _meta: META } },
    { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": name, ...headers },
  );
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The status and challenge of a response, and that its body is a JSON-RPC error. */
async function refusal(response: Response) {
  const body = (await response.json()) as { error?: { message: string } };
  expect(body.error?.message).toBeTypeOf("string");
  return { status: response.status, challenge: response.headers.get("www-authenticate") };
}

describe("the protected-resource metadata", () => {
  it("is served at the path-based and the root well-known URL", async () => {
    for (const url of [metadataUrl, `${new URL(resource).origin}/.well-known/oauth-protected-resource`]) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(await response.json()).toEqual({
        resource,
        authorization_servers: [as.issuer],
        scopes_supported: ["mcp:tools", "files:write"],
        bearer_methods_supported: ["header"],
        dpop_signing_alg_values_supported: expect.arrayContaining(["ES256"]),
      });
    }
  });
});

describe("the status matrix", () => {
  const unauthorized = `Bearer resource_metadata="${"METADATA"}", scope="mcp:tools"`;
  const challenge = (text: string) => text.replace("METADATA", metadataUrl);

  it("401 without a token, naming the metadata and the scopes, and no error code", async () => {
    const { status, challenge: got } = await refusal(await post(INITIALIZE));
    expect(status).toBe(401);
    expect(got).toBe(challenge(unauthorized));
  });

  it("401 for another scheme, as without a token", async () => {
    const { status, challenge: got } = await refusal(
      await post(INITIALIZE, { authorization: "Basic YWdlbnQ6c2VjcmV0" }),
    );
    expect(status).toBe(401);
    expect(got).toBe(challenge(unauthorized));
  });

  it("400 invalid_request for a malformed Authorization header or a token in the URI", async () => {
    for (const authorization of ["Bearer", "Bearer two tokens", 'Bearer "quoted"']) {
      const { status, challenge: got } = await refusal(await post(INITIALIZE, { authorization }));
      expect(status, authorization).toBe(400);
      expect(got).toMatch(/^Bearer error="invalid_request", error_description="[^"]+", resource_metadata="/);
    }
    const inUri = await fetch(`${resource}?access_token=abc`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(INITIALIZE),
    });
    expect((await refusal(inUri)).status).toBe(400);
  });

  const invalid = (description: RegExp) => ({
    status: 401,
    challenge: expect.stringMatching(
      new RegExp(
        `^Bearer error="invalid_token", error_description="${description.source}", resource_metadata="${escapeRegExp(metadataUrl)}", scope="mcp:tools"$`,
      ),
    ),
  });

  it("401 invalid_token for a bad signature", async () => {
    const good = await as.sign(claims());
    const other = await as.sign(claims({ sub: "mallory" }));
    const forged = `${other.split(".").slice(0, 2).join(".")}.${good.split(".")[2]}`;
    expect(await refusal(await post(INITIALIZE, bearer(forged)))).toEqual(invalid(/.*signature.*/));
  });

  it("401 invalid_token for another issuer", async () => {
    const token = await as.sign(claims({ iss: "http://127.0.0.1:1" }));
    expect(await refusal(await post(INITIALIZE, bearer(token)))).toEqual(invalid(/.*iss.*/));
  });

  it("401 invalid_token for a token the authorization server minted for another resource", async () => {
    const token = await as.token({ resource: "http://127.0.0.1:9/other", scope: "mcp:tools" });
    expect(await refusal(await post(INITIALIZE, bearer(token)))).toEqual(invalid(/.*not meant for.*aud.*/));
  });

  it("401 invalid_token for an expired token and a token not valid yet", async () => {
    const expired = await as.sign(claims({ iat: now() - 7200, exp: now() - 3600 }));
    expect(await refusal(await post(INITIALIZE, bearer(expired)))).toEqual(invalid(/the token has expired/));
    const early = await as.sign(claims({ nbf: now() + 3600, exp: now() + 7200 }));
    expect(await refusal(await post(INITIALIZE, bearer(early)))).toEqual(
      invalid(/the token is not valid yet/),
    );
  });

  it("401 invalid_token for alg none and for a token without exp", async () => {
    const header = Buffer.from(JSON.stringify({ alg: "none", typ: "at+jwt" })).toString("base64url");
    const payload = Buffer.from(JSON.stringify(claims())).toString("base64url");
    const unsigned = await refusal(await post(INITIALIZE, bearer(`${header}.${payload}.`)));
    expect(unsigned).toEqual(invalid(/.*/));
    const { exp: _exp, ...noExp } = claims();
    const forever = await refusal(await post(INITIALIZE, bearer(await as.sign(noExp))));
    expect(forever).toEqual(invalid(/.*exp.*/));
  });

  it("401 invalid_token for an opaque token when only JWTs are accepted", async () => {
    expect(await refusal(await post(INITIALIZE, bearer("opaque-handle")))).toEqual(
      invalid(/the token is not a JWT/),
    );
  });

  it("403 insufficient_scope for a token without the server's scopes", async () => {
    const token = await as.token({ resource, scope: "files:read" });
    const { status, challenge: got } = await refusal(await post(INITIALIZE, bearer(token)));
    expect(status).toBe(403);
    expect(got).toMatch(
      new RegExp(
        `^Bearer error="insufficient_scope", error_description="[^"]*mcp:tools[^"]*", resource_metadata="${escapeRegExp(metadataUrl)}", scope="mcp:tools"$`,
      ),
    );
  });

  it("403 insufficient_scope for a tool that needs a scope the token lacks, in both eras", async () => {
    const token = await as.token({ resource, scope: "mcp:tools" });
    const opened = await post(INITIALIZE, bearer(token));
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get("mcp-session-id")!;
    await opened.text();
    const legacy = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "write_file", arguments: {} } },
      { ...bearer(token), "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
    );
    for (const response of [legacy, await callModern("write_file", bearer(token))]) {
      const { status, challenge: got } = await refusal(response);
      expect(status).toBe(403);
      expect(got).toContain('error="insufficient_scope"');
      expect(got).toContain('scope="mcp:tools files:write"');
    }
    await fetch(resource, { method: "DELETE", headers: { ...bearer(token), "mcp-session-id": sessionId } });
  });

  it("403 for a 2025-03-26 batch with one message the token may not send, and none of it runs", async () => {
    const token = await as.token({ resource, scope: "mcp:tools" });
    const init = { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: "2025-03-26" } };
    const opened = await post(init, bearer(token));
    const sessionId = opened.headers.get("mcp-session-id")!;
    await opened.text();
    const headers = { ...bearer(token), "mcp-session-id": sessionId, "mcp-protocol-version": "2025-03-26" };
    const call = (id: number, name: string) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: { text: "batched" } },
    });
    const refused = await post([call(2, "echo"), call(3, "write_file")], headers);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('scope="mcp:tools files:write"');
    await refused.text();
    expect(ran).toEqual([]);
    const served = await post([call(4, "echo")], headers);
    expect(served.status).toBe(200);
    expect(((await served.json()) as { id: number }[]).map((answer) => answer.id)).toEqual([4]);
    ran.splice(ran.indexOf("echo"), 1);
    await fetch(resource, { method: "DELETE", headers });
  });

  describe("DPoP-bound tokens", () => {
    const proofFailure = (description: RegExp) => ({
      status: 401,
      challenge: expect.stringMatching(
        new RegExp(
          `^DPoP error="invalid_dpop_proof", error_description="${description.source}", algs="[^"]+"`,
        ),
      ),
    });

    it("401 without a proof, with a replayed proof, with a proof for another URL, or sent as Bearer", async () => {
      const key = await newDpopKey();
      const token = await as.token({ resource, scope: "mcp:tools", dpop: key });
      const dpop = (proof?: string) => ({
        authorization: `DPoP ${token}`,
        ...(proof ? { dpop: proof } : {}),
      });
      expect(await refusal(await post(INITIALIZE, dpop()))).toEqual(proofFailure(/.*needs a DPoP proof/));
      const wrongUrl = await dpopProof(key, "POST", `${new URL(resource).origin}/other`, { token });
      expect(await refusal(await post(INITIALIZE, dpop(wrongUrl)))).toEqual(proofFailure(/.*htu.*/));
      const wrongToken = await dpopProof(key, "POST", resource, { token: "another" });
      expect(await refusal(await post(INITIALIZE, dpop(wrongToken)))).toEqual(proofFailure(/.*ath.*/));
      const stale = await dpopProof(key, "POST", resource, { token, iat: now() - 3600 });
      expect(await refusal(await post(INITIALIZE, dpop(stale)))).toEqual(proofFailure(/.*iat.*/));
      const otherKey = await dpopProof(await newDpopKey(), "POST", resource, { token });
      expect(await refusal(await post(INITIALIZE, dpop(otherKey)))).toEqual(proofFailure(/.*another key.*/));

      const asBearer = await refusal(await post(INITIALIZE, bearer(token)));
      expect(asBearer.status).toBe(401);
      expect(asBearer.challenge).toMatch(
        /^DPoP error="invalid_token", error_description="the token is DPoP-bound/,
      );

      const proof = await dpopProof(key, "POST", resource, { token });
      const first = await post(INITIALIZE, dpop(proof));
      expect(first.status).toBe(200);
      const sessionId = first.headers.get("mcp-session-id")!;
      await first.text();
      expect(await refusal(await post(INITIALIZE, dpop(proof)))).toEqual(proofFailure(/.*used before.*/));
      const end = await dpopProof(key, "DELETE", resource, { token });
      await fetch(resource, { method: "DELETE", headers: { ...dpop(end), "mcp-session-id": sessionId } });
    });

    it("a non-bound token sent with the DPoP scheme is refused", async () => {
      const token = await as.token({ resource, scope: "mcp:tools" });
      const proof = await dpopProof(await newDpopKey(), "POST", resource, { token });
      const { status, challenge: got } = await refusal(
        await post(INITIALIZE, { authorization: `DPoP ${token}`, dpop: proof }),
      );
      expect(status).toBe(401);
      expect(got).toMatch(/^DPoP error="invalid_token", error_description="the token is not DPoP-bound/);
    });

    it("a DPoP-bound token with its proof calls a tool statelessly", async () => {
      const key = await newDpopKey();
      const token = await as.token({ resource, scope: "mcp:tools", dpop: key });
      const proof = await dpopProof(key, "POST", resource, { token });
      const response = await callModern("echo", { authorization: `DPoP ${token}`, dpop: proof });
      expect(response.status).toBe(200);
      expect(((await response.json()) as any).result.content[0]).toEqual({ type: "text", text: "undefined" });
      ran.splice(ran.indexOf("echo"), 1);
    });
  });

  it("refused requests of every kind in the stateless era too", async () => {
    expect((await refusal(await callModern("echo", {}))).status).toBe(401);
    const expired = await as.sign(claims({ iat: now() - 7200, exp: now() - 3600 }));
    expect(await refusal(await callModern("echo", bearer(expired)))).toEqual(
      invalid(/the token has expired/),
    );
  });

  it("no handler ran and no session opened for any refused request", () => {
    expect(ran).toEqual([]);
    expect(handle.handler.sessionCount).toBe(0);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
