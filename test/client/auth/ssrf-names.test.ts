// Host names a server hands the OAuth client are resolved before anything is sent, every address
// is checked, and the connection goes to the address checked. The resolver is the test's own:
// no test here resolves a real name.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { isOAuthError } from "../../../src/client/auth/errors.js";
import { OAuthHttp } from "../../../src/client/auth/http.js";
import { type HostResolver, setHostResolver } from "../../../src/client/auth/resolve.js";
import { OAuthSession } from "../../../src/client/auth/session.js";

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** A resolver that answers from `names` (one answer per call, the last one repeated) and counts its calls. */
function resolver(names: Record<string, string[][]>) {
  const calls: string[] = [];
  const resolve: HostResolver = async (hostname) => {
    const answers = names[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    const answer = answers[Math.min(calls.filter((name) => name === hostname).length, answers.length - 1)]!;
    calls.push(hostname);
    return answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  setHostResolver(resolve);
  cleanup.push(() => setHostResolver(undefined));
  return { calls };
}

/** A server on 127.0.0.1 that records every connection and request. */
async function local(handle: (req: IncomingMessage, res: ServerResponse, port: number) => void) {
  const requests: { host: string | undefined; method: string; path: string; body: string }[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      requests.push({ host: req.headers.host, method: req.method ?? "", path: req.url ?? "", body });
      handle(req, res, port);
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  cleanup.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return {
    port,
    requests,
    get connections() {
      return connections;
    },
  };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));

const publicServer = { server: new URL("http://mcp.example.test/mcp") };
const loopbackServer = { server: new URL("http://127.0.0.1:1/mcp") };

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("the request went through");
    },
    (error: Error) => error,
  );
}

describe("the OAuth client's fetch, by name", () => {
  it.each([
    ["169.254.169.254", /link-local/],
    ["10.0.0.5", /private/],
    ["127.0.0.1", /loopback/],
    ["fd00:ec2::254", /metadata/],
    ["::ffff:7f00:1", /loopback/],
  ])(
    "refuses a name that resolves to %s for a server on a public name, without connecting",
    async (address, why) => {
      const target = await local((_req, res) => json(res, 200, {}));
      const names = resolver({ "as.example.test": [[address]] });
      const http = new OAuthHttp(undefined, 30_000, publicServer);
      const error = await failure(
        http.fetch(`http://as.example.test:${target.port}/token`, { method: "POST" }),
      );
      expect(isOAuthError(error)).toBe(true);
      expect(error.message).toMatch(why);
      expect(error.message).toContain(address);
      expect(names.calls).toEqual(["as.example.test"]);
      expect(target.connections).toBe(0);
    },
  );

  it("refuses a name with one good address and one bad one, whichever comes first, without connecting", async () => {
    const target = await local((_req, res) => json(res, 200, {}));
    resolver({ "as.example.test": [["127.0.0.1", "169.254.169.254"]] });
    // Loopback is allowed here (the server is on loopback): only the second address is bad.
    const http = new OAuthHttp(undefined, 30_000, loopbackServer);
    const error = await failure(http.fetch(`http://as.example.test:${target.port}/`));
    expect(error.message).toMatch(/169\.254\.169\.254.*link-local/);
    expect(target.connections).toBe(0);
  });

  it("resolves once and connects to the address it checked: a rebinding answer comes too late", async () => {
    const target = await local((_req, res) => json(res, 200, { ok: true }));
    // Rebinding DNS: a good answer for the check, a metadata address for any later lookup.
    const names = resolver({ "as.example.test": [["127.0.0.1"], ["169.254.169.254"]] });
    const http = new OAuthHttp(undefined, 30_000, loopbackServer);
    const response = await http.fetch(`http://as.example.test:${target.port}/.well-known/x?a=1`, {
      headers: { accept: "application/json" },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(names.calls).toEqual(["as.example.test"]);
    expect(target.requests).toEqual([
      { host: `as.example.test:${target.port}`, method: "GET", path: "/.well-known/x?a=1", body: "" },
    ]);
    // The next request looks the name up again, and is refused on the new answer.
    const error = await failure(http.fetch(`http://as.example.test:${target.port}/token`));
    expect(error.message).toMatch(/link-local/);
    expect(target.requests).toHaveLength(1);
  });

  it("lets a name on a private address through for a server on a public name with allowPrivateNetworks, never loopback", async () => {
    const target = await local((_req, res) => json(res, 200, {}));
    // The test can only reach 127.0.0.1: a private-address answer is judged, then the loopback one refused.
    resolver({ "as.example.test": [["10.0.0.5", "127.0.0.1"]] });
    const http = new OAuthHttp(undefined, 30_000, { ...publicServer, allowPrivateNetworks: true });
    const error = await failure(http.fetch(`http://as.example.test:${target.port}/`));
    expect(error.message).toMatch(/\(127\.0\.0\.1\).*loopback/);
    expect(target.connections).toBe(0);
  });

  it("sends a form body, returns a redirect without following it, and caps the body", async () => {
    const target = await local((req, res) => {
      if (req.url === "/token") json(res, 200, { ok: true });
      else if (req.url === "/moved") res.writeHead(302, { location: "http://169.254.169.254/" }).end();
      else res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(1024 * 1024 + 1));
    });
    resolver({ "as.example.test": [["127.0.0.1"]] });
    const http = new OAuthHttp(undefined, 30_000, loopbackServer);
    const origin = `http://as.example.test:${target.port}`;
    const form = await http.fetch(`${origin}/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials", scope: "a b" }),
    });
    expect(form.status).toBe(200);
    expect(target.requests[0]).toMatchObject({
      method: "POST",
      body: "grant_type=client_credentials&scope=a+b",
    });
    const moved = await http.fetch(`${origin}/moved`);
    expect(moved.status).toBe(302);
    expect(moved.headers.get("location")).toBe("http://169.254.169.254/");
    expect(target.requests).toHaveLength(2);
    const error = await failure(http.fetch(`${origin}/large`));
    expect(error.message).toMatch(/larger than 1048576 bytes/);
  });

  it("stops a request whose answer does not come when its signal aborts", async () => {
    let answered = false;
    const target = await local(() => {
      answered = true; // never answers
    });
    resolver({ "as.example.test": [["127.0.0.1"]] });
    const http = new OAuthHttp(undefined, 30_000, loopbackServer);
    const controller = new AbortController();
    const pending = failure(
      http.fetch(`http://as.example.test:${target.port}/`, { signal: controller.signal }),
    );
    await expect.poll(() => answered, { timeout: 30_000 }).toBe(true);
    controller.abort(new Error("gave up"));
    expect((await pending).message).toBe("gave up");
  });
});

/** An MCP server and its authorization server on one port, the AS at a name the test resolves. */
async function protectedServer(asName: string) {
  return local((req, res, port) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const origin = `http://127.0.0.1:${port}`;
    const issuer = `http://${asName}:${port}`;
    if (path === "/mcp") {
      json(
        res,
        401,
        {},
        {
          "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
        },
      );
    } else if (path === "/.well-known/oauth-protected-resource/mcp") {
      json(res, 200, { resource: `${origin}/mcp`, authorization_servers: [issuer] });
    } else if (path === "/.well-known/oauth-authorization-server") {
      json(res, 200, {
        issuer,
        token_endpoint: `${issuer}/token`,
        token_endpoint_auth_methods_supported: ["client_secret_basic"],
        grant_types_supported: ["client_credentials"],
      });
    } else if (path === "/token") {
      json(
        res,
        200,
        { access_token: "at", token_type: "Bearer", expires_in: 3600 },
        { "cache-control": "no-store" },
      );
    } else {
      json(res, 404, {});
    }
  });
}

/** A pre-registered service client whose credentials were issued by `issuer`. */
const service = (issuer: string) =>
  ({
    clientId: "service",
    clientSecret: "service-secret",
    issuer,
    grant: { type: "client_credentials" },
  }) as const;

describe("OAuth discovery and tokens at a named authorization server", () => {
  it("signs in at a name that resolves to loopback for a server on loopback, sending the name as Host", async () => {
    const server = await protectedServer("as.example.test");
    const names = resolver({ "as.example.test": [["127.0.0.1"]] });
    const session = new OAuthSession(
      `http://127.0.0.1:${server.port}/mcp`,
      service(`http://as.example.test:${server.port}`),
    );
    await session.authorize();
    expect((await session.tokens())?.access_token).toBe("at");
    const atName = server.requests
      .filter((r) => r.host === `as.example.test:${server.port}`)
      .map((r) => r.path);
    expect(atName).toEqual(["/.well-known/oauth-authorization-server", "/token"]);
    expect(names.calls).toEqual(["as.example.test", "as.example.test"]);
  });

  it("refuses an authorization server whose name resolves to a cloud metadata address, before sending it anything", async () => {
    const server = await protectedServer("metadata.example.test");
    resolver({ "metadata.example.test": [["169.254.169.254"]] });
    const session = new OAuthSession(
      `http://127.0.0.1:${server.port}/mcp`,
      service(`http://metadata.example.test:${server.port}`),
    );
    const error = await failure(session.authorize());
    expect(isOAuthError(error)).toBe(true);
    expect(error.message).toMatch(/metadata\.example\.test \(169\.254\.169\.254\).*link-local/);
    expect(server.requests.filter((r) => r.host?.startsWith("metadata.example.test"))).toEqual([]);
  });

  it("leaves names to a fetch of the user's: the URL as written is checked, the resolver is not asked", async () => {
    const server = await protectedServer("as.example.test");
    const names = resolver({});
    const sent: string[] = [];
    const session = new OAuthSession(`http://127.0.0.1:${server.port}/mcp`, {
      ...service(`http://as.example.test:${server.port}`),
      // The user's fetch reaches the name by its own means: here, straight to the test server.
      fetch: (async (input: string | URL, init?: RequestInit) => {
        const url = new URL(input);
        sent.push(url.host);
        url.hostname = "127.0.0.1";
        return fetch(url, init);
      }) as typeof fetch,
    });
    await session.authorize();
    expect(sent).toContain(`as.example.test:${server.port}`);
    expect(names.calls).toEqual([]);
  });
});
