/**
 * DPoP (RFC 9449) on a protected server, with tokens oidc-provider bound to a key: a resource that
 * requires DPoP says so in its metadata and challenges and refuses bearer tokens; one that asks for
 * server nonces answers `use_dpop_nonce` with a fresh `DPoP-Nonce`, and a proof carrying it gets in.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServer } from "../../../src/server/index.js";
import type { HttpServerHandle } from "../../../src/transports/http/server/index.js";
import { type AuthServer, dpopProof, newDpopKey, startAuthServer } from "../../helpers/auth-server.js";
import { initializeRequest } from "../../helpers/initialize.js";

const INITIALIZE = initializeRequest();

let as: AuthServer;
let handle: HttpServerHandle;

beforeAll(async () => {
  as = await startAuthServer();
  handle = await new McpServer({ name: "dpop", version: "1" }).serveHttp({
    auth: { issuer: as.issuer, dpop: { required: true, nonce: true, algorithms: ["ES256"] } },
  });
});

afterAll(async () => {
  await handle?.close();
  await as?.close();
});

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

describe("a resource that requires DPoP, with server nonces", () => {
  it("says so in its metadata and in the challenge to a caller without a token", async () => {
    const metadata = await (
      await fetch(`${new URL(handle.url).origin}/.well-known/oauth-protected-resource/mcp`)
    ).json();
    expect(metadata).toMatchObject({
      dpop_bound_access_tokens_required: true,
      dpop_signing_alg_values_supported: ["ES256"],
    });
    const response = await post({});
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(
      /^Bearer resource_metadata="[^"]+", DPoP algs="ES256"$/,
    );
  });

  it("refuses a bearer token", async () => {
    const token = await as.token({ resource: handle.url, scope: "mcp:tools" });
    const response = await post({ authorization: `Bearer ${token}` });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(
      /^DPoP error="invalid_token", error_description="this resource accepts only DPoP-bound tokens"/,
    );
  });

  it("asks for its nonce, then accepts a proof that carries it, once", async () => {
    const key = await newDpopKey();
    const token = await as.token({ resource: handle.url, scope: "mcp:tools", dpop: key });
    const first = await post({
      authorization: `DPoP ${token}`,
      dpop: await dpopProof(key, "POST", handle.url, { token }),
    });
    expect(first.status).toBe(401);
    expect(first.headers.get("www-authenticate")).toMatch(/^DPoP error="use_dpop_nonce", /);
    const nonce = first.headers.get("dpop-nonce");
    expect(nonce).toMatch(/^[a-z0-9]+\.[A-Za-z0-9_-]{22}$/);

    const wrongNonce = await dpopProof(key, "POST", handle.url, { token, nonce: "0.aaaaaaaaaaaaaaaaaaaaaa" });
    const refused = await post({ authorization: `DPoP ${token}`, dpop: wrongNonce });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^DPoP error="use_dpop_nonce", /);

    const proof = await dpopProof(key, "POST", handle.url, { token, nonce: nonce! });
    const served = await post({ authorization: `DPoP ${token}`, dpop: proof });
    expect(served.status).toBe(200);
    const sessionId = served.headers.get("mcp-session-id")!;
    await served.text();
    const replayed = await post({ authorization: `DPoP ${token}`, dpop: proof });
    expect(replayed.status).toBe(401);
    expect(replayed.headers.get("www-authenticate")).toMatch(
      /error_description="the DPoP proof was used before \(jti\)"/,
    );

    const end = await dpopProof(key, "DELETE", handle.url, { token, nonce: nonce! });
    const ended = await fetch(handle.url, {
      method: "DELETE",
      headers: { authorization: `DPoP ${token}`, dpop: end, "mcp-session-id": sessionId },
    });
    expect(ended.status).toBe(200);
  });

  it("refuses a proof signed with an algorithm it does not accept, or with a private key in its header", async () => {
    const key = await newDpopKey();
    const token = await as.token({ resource: handle.url, scope: "mcp:tools", dpop: key });
    const nonce = (
      await post({
        authorization: `DPoP ${token}`,
        dpop: await dpopProof(key, "POST", handle.url, { token }),
      })
    ).headers.get("dpop-nonce")!;
    const good = await dpopProof(key, "POST", handle.url, { token, nonce });
    const [header, payload, signature] = good.split(".") as [string, string, string];
    const decoded = JSON.parse(Buffer.from(header, "base64url").toString());
    const retyped = Buffer.from(JSON.stringify({ ...decoded, alg: "ES384" })).toString("base64url");
    const forged = [
      `${retyped}.${payload}.${signature}`,
      `${header}.${payload}.${signature.slice(0, -4)}AAAA`,
    ];
    for (const proof of forged) {
      const response = await post({ authorization: `DPoP ${token}`, dpop: proof });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^DPoP error="invalid_dpop_proof", /);
    }
    // A header that carries the private key, made with a key the test can export.
    const exportable = await generateKeyPair("ES256", { extractable: true });
    const privateJwk = await exportJWK(exportable.privateKey);
    const bound = await as.token({
      resource: handle.url,
      scope: "mcp:tools",
      dpop: {
        privateKey: exportable.privateKey,
        publicJwk: await exportJWK(exportable.publicKey),
        jkt: await calculateJwkThumbprint(privateJwk, "sha256"),
      },
    });
    const leaky = await new SignJWT({ htm: "POST", htu: handle.url, jti: crypto.randomUUID(), nonce })
      .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: privateJwk })
      .setIssuedAt()
      .sign(exportable.privateKey);
    const leaked = await post({ authorization: `DPoP ${bound}`, dpop: leaky });
    expect(leaked.status).toBe(401);
    expect(leaked.headers.get("www-authenticate")).toMatch(
      /^DPoP error="invalid_dpop_proof", error_description="[^"]*public key/,
    );

    const twoProofs = await post({ authorization: `DPoP ${token}`, dpop: `${good}, ${good}` });
    expect(twoProofs.headers.get("www-authenticate")).toMatch(/exactly one proof/);
  });
});
