// The proxy's upstream OAuth settings: a client secret names its issuer, and is presented to no other
// authorization server, whatever an upstream's metadata names.
import { afterEach, describe, expect, it } from "vitest";
import { checkProxyConfig, createProxyServer } from "../../src/proxy/index.js";
import { protectedMcpServer, recordingAuthorizationServer } from "../helpers/recording-oauth.js";

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const SECRET = "the-proxy-upstream-secret-0123456789";

describe("the proxy's upstream auth", () => {
  it("refuses a config whose client secret has no issuer, before connecting anything", async () => {
    const server = await protectedMcpServer([]);
    cleanup.push(() => server.close());
    const config = {
      mcpServers: { up: { url: server.url, auth: { clientId: "proxy", clientSecret: SECRET } } },
    };
    expect(() => checkProxyConfig(config)).toThrow('server "up": auth.clientSecret needs auth.issuer');
    await expect(createProxyServer({ config })).rejects.toThrow("auth.clientSecret needs auth.issuer");
    expect(server.seen).toEqual([]);
  });

  it("takes an issuer, and presents the secret to no other authorization server", async () => {
    const honest = await recordingAuthorizationServer({ name: "honest" });
    cleanup.push(() => honest.close());
    const attacker = await recordingAuthorizationServer({ name: "attacker" });
    cleanup.push(() => attacker.close());
    const server = await protectedMcpServer([attacker.issuer]);
    cleanup.push(() => server.close());
    const config = {
      mcpServers: {
        up: { url: server.url, auth: { clientId: "proxy", clientSecret: SECRET, issuer: honest.issuer } },
      },
    };
    expect(() => checkProxyConfig(config)).not.toThrow();
    const error = await createProxyServer({ config, connectTimeout: 20_000 }).then(
      async (proxy) => {
        await proxy.close();
        throw new Error("connected");
      },
      (e: Error) => e,
    );
    expect(error.message).toContain(attacker.issuer);
    expect(error.message).toContain(`${honest.issuer} (auth.issuer)`);
    expect(attacker.seen).toEqual([]);
    expect(honest.seen).toEqual([]);
  });
});
