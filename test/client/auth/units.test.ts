import { describe, expect, it } from "vitest";
import { openBrowser, parseWwwAuthenticate, startLoopbackReceiver } from "../../../src/client/auth/index.js";
import { selectScopes } from "../../../src/client/auth/scopes.js";
import { OAuthSession } from "../../../src/client/auth/session.js";
import { MemoryTokenStore } from "../../../src/client/auth/store.js";
import { checkBrowserUrl, checkPeerUrl } from "../../../src/client/auth/url-policy.js";

describe("WWW-Authenticate", () => {
  it("reads the parameters of a Bearer challenge, quoted or not", () => {
    expect(
      parseWwwAuthenticate(
        'Bearer error="insufficient_scope", scope="mcp:read mcp:write", resource_metadata="https://a/.well-known/x", error_description="needs \\"write\\""',
      ),
    ).toEqual([
      {
        scheme: "bearer",
        params: {
          error: "insufficient_scope",
          scope: "mcp:read mcp:write",
          resource_metadata: "https://a/.well-known/x",
          error_description: 'needs "write"',
        },
      },
    ]);
    expect(parseWwwAuthenticate("Bearer error=invalid_token")).toEqual([
      { scheme: "bearer", params: { error: "invalid_token" } },
    ]);
  });

  it("splits several challenges, token68 ones included", () => {
    const challenges = parseWwwAuthenticate('Basic dXNlcjpwYXNz, DPoP algs="ES256", Bearer realm="mcp"');
    expect(challenges.map((c) => c.scheme)).toEqual(["basic", "dpop", "bearer"]);
    expect(challenges[1]!.params).toEqual({ algs: "ES256" });
    expect(challenges[2]!.params).toEqual({ realm: "mcp" });
  });

  it("keeps what it read before a malformed part, and nothing for an empty header", () => {
    expect(parseWwwAuthenticate('Bearer scope="a", resource_metadata="unterminated')).toEqual([
      { scheme: "bearer", params: { scope: "a" } },
    ]);
    expect(parseWwwAuthenticate(undefined)).toEqual([]);
    expect(parseWwwAuthenticate("")).toEqual([]);
  });
});

describe("URLs from peers", () => {
  const https = new URL("https://mcp.example.com/mcp");
  const local = new URL("http://127.0.0.1:3000/mcp");

  it("takes https URLs on public hosts", () => {
    expect(checkPeerUrl("https://auth.example.com/", https, "x").host).toBe("auth.example.com");
  });

  it.each([
    ["http://169.254.169.254/latest/meta-data/", "link-local"],
    ["http://[fe80::1]/", "link-local"],
    ["http://0.0.0.0/", "reserved"],
    ["http://10.0.0.5/.well-known/x", "private"],
    ["http://192.168.1.1/", "private"],
    ["https://[::ffff:127.0.0.1]/", "loopback"],
    ["http://localhost:8080/", "loopback"],
    ["http://auth.example.com/", "plain http"],
    ["file:///etc/passwd", "file:"],
    ["https://user:pass@auth.example.com/", "credentials"],
    ["not a url", "not a URL"],
  ])("refuses %s for an https server on a public host", (url, why) => {
    expect(() => checkPeerUrl(url, https, "metadata URL")).toThrow(why);
  });

  it("lets a server on this machine point at this machine or the private network, never at link-local", () => {
    expect(checkPeerUrl("http://127.0.0.1:4000/", local, "x").port).toBe("4000");
    expect(checkPeerUrl("http://10.1.2.3/", local, "x").hostname).toBe("10.1.2.3");
    expect(() => checkPeerUrl("http://169.254.169.254/", local, "x")).toThrow("link-local");
  });

  it("opens only https (or http on this machine) URLs a command line cannot misread", () => {
    expect(checkBrowserUrl("https://auth.example/authorize?a=1&b=2").href).toContain("a=1&b=2");
    expect(checkBrowserUrl("http://127.0.0.1:5000/authorize").port).toBe("5000");
    for (const bad of [
      "http://auth.example/authorize",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "https://a/?$(id)",
      "https://a/`id`",
      "https://a/x;rm -rf",
      "--help",
      "-https://a/",
    ]) {
      expect(() => checkBrowserUrl(bad), bad).toThrow("Refusing to open");
    }
  });

  it("refuses to open a bad URL without starting anything", async () => {
    await expect(openBrowser("javascript:alert(1)")).rejects.toThrow("Refusing to open");
  });
});

describe("scope selection", () => {
  const as = { issuer: "https://as" };
  const resource = { resource: "https://mcp/mcp", scopes_supported: ["a", "b"] };
  const base = { configured: undefined, previous: undefined, wantsRefresh: false, resource, as };

  it("takes the challenge's scope, else the configured ones, else the resource's, else none", () => {
    expect(selectScopes({ ...base, challenged: ["x"] })).toEqual(["x"]);
    expect(selectScopes({ ...base, challenged: undefined, configured: ["c"] })).toEqual(["c"]);
    expect(selectScopes({ ...base, challenged: undefined })).toEqual(["a", "b"]);
    expect(
      selectScopes({ ...base, challenged: undefined, resource: { resource: "https://mcp/mcp" } }),
    ).toEqual([]);
  });

  it("keeps what was asked before on a step-up, and asks for offline_access only where it is offered", () => {
    expect(selectScopes({ ...base, challenged: ["write"], previous: ["read"] })).toEqual(["read", "write"]);
    const offered = { issuer: "https://as", scopes_supported: ["a", "offline_access"] };
    expect(selectScopes({ ...base, challenged: ["a"], as: offered, wantsRefresh: true })).toEqual([
      "a",
      "offline_access",
    ]);
    expect(selectScopes({ ...base, challenged: ["a"], wantsRefresh: true })).toEqual(["a"]);
  });
});

describe("loopback redirect receiver", () => {
  it("listens on 127.0.0.1, takes one request on its path, then stops", async () => {
    const receiver = await startLoopbackReceiver();
    const redirect = new URL(receiver.redirectUri);
    expect(redirect.hostname).toBe("127.0.0.1");
    expect((await fetch(new URL("/other", redirect))).status).toBe(404);
    const waiting = receiver.wait(AbortSignal.timeout(5000));
    const page = await fetch(`${receiver.redirectUri}?code=abc&state=xyz`);
    expect(page.status).toBe(200);
    const url = await waiting;
    expect(url.searchParams.get("code")).toBe("abc");
    expect((await fetch(`${receiver.redirectUri}?code=again`)).status).toBe(404);
    receiver.close();
    await expect(fetch(receiver.redirectUri)).rejects.toThrow();
  });

  it("gives up when the signal says so", async () => {
    const receiver = await startLoopbackReceiver();
    await expect(receiver.wait(AbortSignal.timeout(20))).rejects.toThrow("not completed in time");
    receiver.close();
  });
});

describe("a request refused while another authorized", () => {
  it("is sent again with the token the other got, starting no authorization of its own", async () => {
    const url = "http://127.0.0.1:1/mcp"; // nothing listens there: an authorization would fail
    const store = new MemoryTokenStore();
    const tokens = { access_token: "fresh", token_type: "bearer" };
    await store.set(url, { issuer: "http://127.0.0.1:1", resource: url, tokens });
    const session = new OAuthSession(url, { store });
    const sentWithout = { method: "POST" as const, url: new URL(url) }; // sent before the token was there
    const other = { method: "POST" as const, url: new URL(url) };
    expect(await session.headers(other)).toEqual({ authorization: "Bearer fresh" });
    const challenge = { status: 401, wwwAuthenticate: "Bearer", dpopNonce: undefined };
    await expect(session.challenged(challenge, sentWithout, 0)).resolves.toBe(true);
  });
});
