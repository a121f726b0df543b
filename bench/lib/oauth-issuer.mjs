/**
 * A minimal authorization server for the OAuth-protected measurements, run in the driver (not in
 * the measured server): an ES256 key pair made with jose, its metadata (RFC 8414) and JWKS served
 * on 127.0.0.1, and one JWT access token (RFC 9068) for `resource`. The measured server fetches
 * the metadata and the JWKS once, on its first protected request, and verifies every token
 * against the cached keys after that.
 */
import { createServer } from "node:http";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

export const BENCH_RESOURCE = "http://127.0.0.1/mcp";
export const BENCH_SCOPE = "mcp:tools";

/** Starts the issuer; resolves with `{ issuer, token, close() }`. */
export async function startIssuer(resource = BENCH_RESOURCE) {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const kid = "bench-key";
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" }] });
  const http = createServer();
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${http.address().port}`;
  const metadata = JSON.stringify({
    issuer,
    jwks_uri: `${issuer}/jwks`,
    token_endpoint: `${issuer}/token`,
    response_types_supported: ["code"],
  });
  http.on("request", (req, res) => {
    const body = req.url === "/jwks" ? jwks : req.url?.startsWith("/.well-known/") ? metadata : undefined;
    res.writeHead(body ? 200 : 404, { "content-type": "application/json" });
    res.end(body ?? "{}");
  });
  const token = await new SignJWT({ scope: BENCH_SCOPE, client_id: "bench-client" })
    .setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt" })
    .setIssuer(issuer)
    .setAudience(resource)
    .setSubject("bench-user")
    .setIssuedAt()
    .setExpirationTime("6h")
    .setJti("bench-token")
    .sign(privateKey);
  return {
    issuer,
    token,
    /** The `auth` option of the protected server. */
    // A long timeout: under callgrind the server takes seconds to fetch the metadata and the keys.
    auth: { issuer, resource, scopes: [BENCH_SCOPE], timeout: 120_000 },
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
