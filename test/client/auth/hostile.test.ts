// Servers that try to turn the OAuth client against its user: every one is refused before the
// client sends anything where it should not (or starts a process), and no token leaks.
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isOAuthError, MemoryTokenStore, OAuthSession } from "../../../src/client/auth/index.js";
import { McpClient } from "../../../src/client/index.js";
import { until } from "../../helpers/until.js";

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

interface Behaviour {
  /** The `WWW-Authenticate` of the 401, given the server's origin. */
  challenge?: (origin: string) => string;
  /** The protected-resource metadata at the path-based well-known URL. */
  resource?: (origin: string) => Record<string, unknown>;
  /** The authorization server metadata at the root well-known URL. */
  metadata?: (origin: string) => Record<string, unknown>;
  /** Answers POST /mcp instead of the 401. */
  mcp?: (authorization: string | undefined) => { status: number; body: string };
}

/** A server playing MCP server and authorization server at once, recording every request. */
async function hostile(behaviour: Behaviour) {
  const seen: { method: string; path: string; authorization?: string }[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    seen.push({
      method: req.method ?? "",
      path,
      ...(req.headers.authorization && { authorization: req.headers.authorization }),
    });
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
    };
    req.resume();
    if (path === "/mcp" && behaviour.mcp) {
      const { status, body } = behaviour.mcp(req.headers.authorization);
      res.writeHead(status, { "content-type": "text/plain" }).end(body);
    } else if (path === "/mcp") {
      const challenge =
        behaviour.challenge?.(origin) ??
        `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
      json(401, { error: "unauthorized" }, { "www-authenticate": challenge });
    } else if (path === "/.well-known/oauth-protected-resource/mcp" && behaviour.resource) {
      json(200, behaviour.resource(origin));
    } else if (path === "/.well-known/oauth-authorization-server" && behaviour.metadata) {
      json(200, behaviour.metadata(origin));
    } else if (path === "/register") {
      json(201, { client_id: "registered" });
    } else {
      json(404, { error: "not_found" });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanup.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url: `${origin}/mcp`, origin, seen };
}

const resourceOf = (origin: string) => ({ resource: `${origin}/mcp`, authorization_servers: [origin] });
const metadataOf = (origin: string, extra: Record<string, unknown> = {}) => ({
  issuer: origin,
  authorization_endpoint: `${origin}/authorize`,
  token_endpoint: `${origin}/token`,
  registration_endpoint: `${origin}/register`,
  code_challenge_methods_supported: ["S256"],
  ...extra,
});

/** Connecting fails with an authorization error whose message matches `message`. */
async function refused(
  url: string,
  message: RegExp,
  auth: ConstructorParameters<typeof OAuthSession>[1] = {},
) {
  const error = await McpClient.connect({ url, auth, handshakeTimeout: 10_000 }).then(
    (client) => {
      void client.close();
      throw new Error("connected");
    },
    (e: unknown) => e,
  );
  expect(isOAuthError(error)).toBe(true);
  expect(String((error as Error).message)).toMatch(message);
}

/** Paths the client must not have reached once it refused. */
const stepsAfterDiscovery = (seen: { path: string }[]) =>
  seen.filter((r) => ["/register", "/authorize", "/token"].includes(r.path));

describe("hostile servers", () => {
  it("refuses protected-resource metadata at a link-local (cloud metadata) address", async () => {
    const server = await hostile({
      challenge: () => `Bearer resource_metadata="http://169.254.169.254/latest/meta-data/"`,
    });
    await refused(server.url, /link-local/);
    expect(stepsAfterDiscovery(server.seen)).toEqual([]);
  });

  it("refuses protected-resource metadata at a file: URL", async () => {
    const server = await hostile({ challenge: () => `Bearer resource_metadata="file:///etc/passwd"` });
    await refused(server.url, /file: URLs are not allowed/);
  });

  it("refuses an authorization server at a link-local address", async () => {
    const server = await hostile({
      resource: (origin) => ({
        resource: `${origin}/mcp`,
        authorization_servers: ["http://169.254.169.254/"],
      }),
    });
    await refused(server.url, /link-local/);
    expect(stepsAfterDiscovery(server.seen)).toEqual([]);
  });

  it("refuses authorization server metadata whose issuer is not the one it was fetched for", async () => {
    const server = await hostile({
      resource: resourceOf,
      metadata: (origin) => metadataOf(origin, { issuer: "https://attacker.example.com" }),
    });
    await refused(server.url, /issuer/);
    expect(stepsAfterDiscovery(server.seen)).toEqual([]);
  });

  it("refuses protected-resource metadata that describes another server", async () => {
    const server = await hostile({
      resource: (origin) => ({ resource: "https://evil.example.com/mcp", authorization_servers: [origin] }),
      metadata: (origin) => metadataOf(origin),
    });
    await refused(server.url, /not for/);
    expect(stepsAfterDiscovery(server.seen)).toEqual([]);
  });

  describe("authorization endpoints that are not web pages", () => {
    let canary: string;
    let savedPath: string | undefined;

    /** A fake browser opener on PATH that writes its arguments to the canary file. */
    async function installCanary() {
      const directory = await mkdtemp(join(tmpdir(), "mcpkit-canary-"));
      canary = join(directory, "opened");
      const opener = join(directory, "xdg-open");
      await writeFile(opener, `#!/bin/sh\nprintf '%s\\n' "$@" > '${canary}'\n`);
      await chmod(opener, 0o755);
      savedPath = process.env.PATH;
      process.env.PATH = `${directory}:${process.env.PATH}`;
      cleanup.push(async () => {
        process.env.PATH = savedPath;
        await rm(directory, { recursive: true, force: true });
      });
    }

    const opened = () => readFile(canary, "utf8").catch(() => undefined);
    const notLinux = "the opener replaced here by a canary is xdg-open, Linux's";

    it.for([
      ["file:///etc/passwd", /file: URLs are not allowed/],
      ["javascript:alert(document.cookie)", /javascript: URLs are not allowed/],
      ["https://auth.example/authorize?$(id)", /command line/],
      ["--flag", /not a URL/],
    ] as const)("refuses %s before anything is started", async ([endpoint, message], ctx) => {
      ctx.skip(process.platform !== "linux", notLinux);
      await installCanary();
      const server = await hostile({
        resource: resourceOf,
        metadata: (origin) => metadataOf(origin, { authorization_endpoint: endpoint }),
      });
      await refused(server.url, message);
      expect(await opened()).toBeUndefined();
      expect(stepsAfterDiscovery(server.seen)).toEqual([]);
    });

    it("opens an https endpoint with the opener, the URL as one argument", async (ctx) => {
      ctx.skip(process.platform !== "linux", notLinux);
      await installCanary();
      const server = await hostile({
        resource: resourceOf,
        metadata: (origin) =>
          metadataOf(origin, { authorization_endpoint: "https://auth.example/authorize" }),
      });
      await refused(server.url, /not completed in time/, { authorizationTimeout: 300 });
      // The opener runs on its own: on a loaded machine it may write after the client gave up.
      const argv = (await until(opened, { what: "the opener to write its arguments" })).trimEnd().split("\n");
      expect(argv).toHaveLength(1);
      expect(new URL(argv[0]!).origin).toBe("https://auth.example");
    });
  });

  it("sends tokens to the MCP server's origin only", async () => {
    const store = new MemoryTokenStore();
    const url = "http://127.0.0.1:1/mcp";
    store.set(url, {
      issuer: "http://127.0.0.1:2",
      resource: url,
      tokens: { access_token: "the-access-token", token_type: "bearer" },
    });
    const session = new OAuthSession(url, { store });
    expect(await session.headers({ method: "POST", url: new URL(url) })).toEqual({
      authorization: "Bearer the-access-token",
    });
    for (const other of ["http://127.0.0.1:2/mcp", "http://localhost:1/mcp", "https://127.0.0.1:1/mcp"]) {
      expect(await session.headers({ method: "POST", url: new URL(other) })).toEqual({});
    }
  });

  it("keeps tokens out of error messages and traces, even when the server echoes them", async () => {
    const token = "a-secret-access-token-0123456789";
    const server = await hostile({
      mcp: (authorization) => ({ status: 500, body: `you sent: ${authorization}` }),
    });
    const store = new MemoryTokenStore();
    store.set(server.url, {
      issuer: server.origin,
      resource: server.url,
      tokens: { access_token: token, token_type: "bearer" },
    });
    const traced: string[] = [];
    const error = await McpClient.connect({
      url: server.url,
      auth: { store },
      transport: "streamable-http",
      trace: (_direction, message) => traced.push(JSON.stringify(message)),
    }).catch((e: Error) => e);
    expect(server.seen.some((r) => r.authorization === `Bearer ${token}`)).toBe(true);
    expect(String((error as Error).message)).toContain("[redacted]");
    expect(String((error as Error).message)).not.toContain(token);
    expect(traced.length).toBeGreaterThan(0);
    expect(traced.some((line) => line.includes(token))).toBe(false);
  });
});
