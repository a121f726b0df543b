// `mcpkit login` where dynamic registration is restricted: an authorization server that offers no
// refresh tokens, and one that lets no client register without an initial access token.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAuthorizationServer, startProtectedServer } from "../helpers/oauth-servers.js";
import { protectedMcpServer, recordingAuthorizationServer } from "../helpers/recording-oauth.js";
import { loginWithoutBrowser } from "./login-run.js";
import { mcpkit, SLOW } from "./run.js";

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function configHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "mcpkit-login-"));
  cleanup.push(() => rm(home, { recursive: true, force: true }));
  return home;
}

describe("mcpkit login where registration is restricted", () => {
  it("signs in at an authorization server that offers no refresh_token grant", SLOW, async () => {
    const as = await startAuthorizationServer({ refreshTokens: false });
    cleanup.push(() => as.close());
    const server = await startProtectedServer({ as });
    cleanup.push(() => server.close());
    const home = await configHome();

    const login = await loginWithoutBrowser(server.url, { XDG_CONFIG_HOME: home });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Signed in to ${server.url}`);
    expect(as.grants).toEqual(["authorization_code"]);
    const folder = join(home, "mcpkit", "oauth");
    const [file] = await readdir(folder);
    const kept = JSON.parse(await readFile(join(folder, file!), "utf8")).value;
    expect(kept.tokens.access_token).toEqual(expect.any(String));
    expect(kept.tokens.refresh_token).toBeUndefined();
  });

  it("says how to sign in with a pre-registered client when registration needs an initial access token", async () => {
    const as = await recordingAuthorizationServer({
      name: "okta-like",
      register: () => ({
        status: 401,
        body: { error: "invalid_token", error_description: "an initial access token is required" },
      }),
    });
    cleanup.push(() => as.close());
    const server = await protectedMcpServer([as.issuer]);
    cleanup.push(() => server.close());
    const run = await mcpkit(["login", "--no-browser", server.url], {
      env: { XDG_CONFIG_HOME: await configHome() },
    });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain("HTTP 401: invalid_token (an initial access token is required)");
    expect(run.stderr).toContain("lets only clients with an initial access token register");
    expect(run.stderr).toContain(
      `then run: mcpkit login --client-id <its client id> --issuer <the authorization server's issuer URL> ${server.url}`,
    );
    expect(run.stderr).not.toContain("open this URL");
  });
});
