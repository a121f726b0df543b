/**
 * Opaque access tokens, checked by asking the authorization server (RFC 7662 token
 * introspection, oidc-provider's endpoint, with the resource server's own client credentials):
 * active tokens for this resource get in, revoked ones, other resources' and unknown ones do not,
 * DPoP-bound ones need their proof, and JWTs are still checked locally.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../../src/client/index.js";
import { McpServer } from "../../../src/server/index.js";
import type { HttpServerHandle } from "../../../src/transports/http/server/index.js";
import {
  type AuthServer,
  dpopProof,
  newDpopKey,
  RESOURCE_SERVER,
  startAuthServer,
} from "../../helpers/auth-server.js";
import { initializeRequest } from "../../helpers/initialize.js";

const INITIALIZE = initializeRequest();

let as: AuthServer;
let handle: HttpServerHandle;
const ran: string[] = [];

beforeAll(async () => {
  as = await startAuthServer();
  const server = new McpServer({ name: "opaque", version: "1" }).tool("whoami", {}, (_args, ctx) => {
    ran.push("whoami");
    return `${ctx.auth?.subject} ${ctx.auth?.scopes.join(",")}`;
  });
  handle = await server.serveHttp({
    auth: { issuer: as.issuer, scopes: ["mcp:tools"], introspection: { ...RESOURCE_SERVER } },
  });
  as.opaque.add(handle.url);
});

afterAll(async () => {
  await handle?.close();
  await as?.close();
});

const introspections = () => as.requests.filter((path) => path === "/token/introspection").length;

function post(headers: Record<string, string>): Promise<Response> {
  return fetch(handle.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(INITIALIZE),
  });
}

async function challengeOf(response: Response) {
  await response.text();
  return { status: response.status, challenge: response.headers.get("www-authenticate") };
}

describe("token introspection", () => {
  it("lets an active opaque token for this resource in, in both eras, with what introspection says", async () => {
    const token = await as.token({ resource: handle.url, scope: "mcp:tools files:read" });
    expect(token.split(".")).toHaveLength(1);
    for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
      const client = await McpClient.connect({
        url: handle.url,
        transport: "streamable-http",
        protocolVersion,
        headers: { authorization: `Bearer ${token}` },
      });
      expect((await client.callTool("whoami", {})).text()).toBe("agent mcp:tools,files:read");
      await client.close();
    }
    expect(introspections()).toBeGreaterThan(0);
  });

  it("refuses a revoked token, an unknown one and one for another resource with invalid_token", async () => {
    const revoked = await as.token({ resource: handle.url, scope: "mcp:tools" });
    expect((await post({ authorization: `Bearer ${revoked}` })).status).toBe(200);
    await as.revoke(revoked);
    as.opaque.add("http://127.0.0.1:9/other");
    const elsewhere = await as.token({ resource: "http://127.0.0.1:9/other", scope: "mcp:tools" });
    const cases = [
      [revoked, /the token is not active/],
      ["not-a-token-this-server-issued", /the token is not active/],
      [elsewhere, /the token is not meant for .* \(aud\)/],
    ] as const;
    for (const [token, why] of cases) {
      const { status, challenge } = await challengeOf(await post({ authorization: `Bearer ${token}` }));
      expect(status).toBe(401);
      expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="/);
      expect(challenge).toMatch(why);
    }
  });

  it("needs the proof of a DPoP-bound opaque token (its cnf.jkt from introspection)", async () => {
    const key = await newDpopKey();
    const token = await as.token({ resource: handle.url, scope: "mcp:tools", dpop: key });
    const without = await challengeOf(await post({ authorization: `DPoP ${token}` }));
    expect(without.status).toBe(401);
    expect(without.challenge).toMatch(/^DPoP error="invalid_dpop_proof"/);
    const proof = await dpopProof(key, "POST", handle.url, { token });
    expect((await post({ authorization: `DPoP ${token}`, dpop: proof })).status).toBe(200);
  });

  it("still checks JWTs with the issuer's keys, without asking", async () => {
    as.opaque.delete(handle.url);
    try {
      const jwt = await as.token({ resource: handle.url, scope: "mcp:tools" });
      const before = introspections();
      expect((await post({ authorization: `Bearer ${jwt}` })).status).toBe(200);
      expect(introspections()).toBe(before);
    } finally {
      as.opaque.add(handle.url);
    }
  });

  it("answers 503, not 401, when the authorization server refuses the resource server's own credentials", async () => {
    const wrong = await new McpServer({ name: "misconfigured", version: "1" }).serveHttp({
      auth: {
        issuer: as.issuer,
        introspection: { clientId: RESOURCE_SERVER.clientId, clientSecret: "wrong" },
      },
    });
    try {
      as.opaque.add(wrong.url);
      const token = await as.token({ resource: wrong.url, scope: "mcp:tools" });
      const response = await fetch(wrong.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify(INITIALIZE),
      });
      expect(response.status).toBe(503);
      expect(response.headers.get("www-authenticate")).toBeNull();
      expect(((await response.json()) as any).error.message).toMatch(/introspection endpoint answered 401/);
    } finally {
      await wrong.close();
    }
  });

  it("ran the tool only for the callers it let in", () => {
    expect(ran).toEqual(["whoami", "whoami"]);
  });
});
