import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
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

describe("mcpkit login / logout", () => {
  it(
    "signs in, lets later commands use the kept tokens without showing them, and forgets them",
    SLOW,
    async () => {
      const as = await startAuthorizationServer();
      cleanup.push(() => as.close());
      const server = await startProtectedServer({ as });
      cleanup.push(() => server.close());
      const home = await mkdtemp(join(tmpdir(), "mcpkit-login-"));
      cleanup.push(() => rm(home, { recursive: true, force: true }));
      const env = { XDG_CONFIG_HOME: home };

      const login = await loginWithoutBrowser(server.url, env);
      expect(login.code, login.stderr).toBe(0);
      expect(login.stdout).toContain(`Signed in to ${server.url} (scopes: mcp:tools`);
      const folder = join(home, "mcpkit", "oauth");
      const [file] = await readdir(folder);
      expect((await stat(join(folder, file!))).mode & 0o777).toBe(0o600);
      const token = JSON.parse(await readFile(join(folder, file!), "utf8")).value.tokens
        .access_token as string;

      const tools = await mcpkit(["tools", "--trace", server.url], { env });
      expect(tools.code, tools.stderr).toBe(0);
      expect(tools.stdout).toContain("echo");
      expect(tools.stderr).toContain("tools/list");
      expect(tools.stderr + tools.stdout).not.toContain(token);
      expect(server.seen.some((r) => r.authorization === `Bearer ${token}`)).toBe(true);

      const logout = await mcpkit(["logout", server.url], { env });
      expect(logout.stdout).toContain(`Signed out of ${server.url}`);
      expect(await readdir(folder)).toEqual([]);

      // Not at a terminal, a command does not wait for a sign-in no one can do.
      const refused = await mcpkit(["tools", server.url], { env });
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain(`run mcpkit login ${server.url}`);
    },
  );

  it("signs in at the --issuer alone: a server that names another authorization server is refused", async () => {
    const honest = await recordingAuthorizationServer({ name: "honest" });
    cleanup.push(() => honest.close());
    const attacker = await recordingAuthorizationServer({ name: "attacker" });
    cleanup.push(() => attacker.close());
    const server = await protectedMcpServer([attacker.issuer]);
    cleanup.push(() => server.close());
    const home = await mkdtemp(join(tmpdir(), "mcpkit-login-"));
    cleanup.push(() => rm(home, { recursive: true, force: true }));
    const run = await mcpkit(
      ["login", "--no-browser", "--client-id", "app", "--issuer", honest.issuer, server.url],
      { env: { XDG_CONFIG_HOME: home } },
    );
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain(attacker.issuer);
    expect(run.stderr).toContain(`${honest.issuer} (auth.issuer)`);
    expect(run.stderr).not.toContain("open this URL");
    expect(attacker.seen).toEqual([]);
    expect(honest.seen).toEqual([]);
  });

  it("refuses an --issuer that is no issuer URL", async () => {
    const run = await mcpkit(["login", "--issuer", "auth.example.com", "https://mcp.example.com/mcp"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `--issuer: must be the authorization server's issuer URL, not "auth.example.com"`,
    );
  });

  it("refuses what is not a URL", async () => {
    const run = await mcpkit(["login", "mcp.example.com"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("give the server's URL");
  });
});
