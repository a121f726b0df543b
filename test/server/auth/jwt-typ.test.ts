/**
 * A JWT access token must say it is one: `typ` `at+jwt` (RFC 9068 §4), by default. A token typed
 * `JWT` (an ID token, or an authorization server that types its access tokens so) or untyped is
 * refused with a 401 whose description names the option that accepts it, and that option
 * (`jwt.typ`) does. Tokens are signed with a real authorization server's key.
 */
import { decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JwtOptions } from "../../../src/server/auth/index.js";
import { ResourceServer } from "../../../src/server/auth/index.js";
import { McpServer } from "../../../src/server/index.js";
import type { HttpServerHandle } from "../../../src/transports/http/server/index.js";
import { type AuthServer, startAuthServer } from "../../helpers/auth-server.js";

let as: AuthServer;
const handles: HttpServerHandle[] = [];
beforeAll(async () => {
  as = await startAuthServer();
});
afterAll(async () => {
  await Promise.all(handles.map((handle) => handle.close()));
  await as?.close();
});

async function serve(jwt?: JwtOptions): Promise<string> {
  const server = new McpServer({ name: "typed", version: "1" }).tool("echo", {}, () => "ok");
  const handle = await server.serveHttp({ auth: { issuer: as.issuer, ...(jwt ? { jwt } : {}) } });
  handles.push(handle);
  return handle.url;
}

/** A token for `url` with the `typ` header given (`undefined`: none). */
function token(url: string, typ: string | undefined): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return as.sign({ iss: as.issuer, sub: "alice", client_id: "app", aud: url, exp: now + 600 }, { typ });
}

const list = (url: string, token: string) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${token}`,
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/list",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });

/** The `error_description` of a 401's challenge. */
async function refusal(response: Response): Promise<string> {
  expect(response.status).toBe(401);
  await response.body?.cancel();
  const challenge = response.headers.get("www-authenticate") ?? "";
  expect(challenge).toContain('error="invalid_token"');
  return /error_description="([^"]*)"/.exec(challenge)?.[1] ?? "";
}

describe("the typ of JWT access tokens", () => {
  it("is at+jwt by default, written any way a media type may be", async () => {
    const url = await serve();
    for (const typ of ["at+jwt", "application/at+jwt", "AT+JWT"]) {
      const response = await list(url, await token(url, typ));
      expect(response.status, typ).toBe(200);
      await response.body?.cancel();
    }
    // What a real authorization server issues as JWT access tokens (oidc-provider).
    const issued = await as.token({ resource: url });
    expect(decodeProtectedHeader(issued).typ).toBe("at+jwt");
    const response = await list(url, issued);
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it("refuses a token typed JWT by default, naming the option that accepts it", async () => {
    const url = await serve();
    expect(await refusal(await list(url, await token(url, "JWT")))).toBe(
      "the token's typ header is JWT; an access token's typ is at+jwt (RFC 9068). If the authorization server issues access tokens typed JWT, accept them with the resource server's option jwt: { typ: ['at+jwt', 'JWT'] }",
    );
  });

  it("refuses a token without typ by default, naming the option that accepts it", async () => {
    const url = await serve();
    expect(await refusal(await list(url, await token(url, undefined)))).toBe(
      "the token has no typ header; an access token's typ is at+jwt (RFC 9068). If the authorization server issues access tokens without typ, accept them with the resource server's option jwt: { typ: ['at+jwt', null] }",
    );
  });

  it("accepts the types jwt.typ lists, and no others", async () => {
    const typed = await serve({ typ: ["at+jwt", "JWT"] });
    for (const typ of ["JWT", "application/jwt", "at+jwt"]) {
      const response = await list(typed, await token(typed, typ));
      expect(response.status, typ).toBe(200);
      await response.body?.cancel();
    }
    expect(await refusal(await list(typed, await token(typed, undefined)))).toContain(
      "an access token's typ is at+jwt, JWT (RFC 9068)",
    );

    const untyped = await serve({ typ: ["at+jwt", null] });
    const response = await list(untyped, await token(untyped, undefined));
    expect(response.status).toBe(200);
    await response.body?.cancel();
    expect(await refusal(await list(untyped, await token(untyped, "JWT")))).toContain(
      "jwt: { typ: ['at+jwt', null, 'JWT'] }",
    );
  });

  it("is a list of types, checked when the resource server is made", () => {
    for (const typ of [[], [""], "at+jwt"] as unknown as JwtOptions["typ"][]) {
      expect(() => new ResourceServer({ issuer: "https://as.example", jwt: { typ } })).toThrow(
        'auth jwt.typ must list the accepted typ values: strings such as "at+jwt", or null for none',
      );
    }
  });
});
