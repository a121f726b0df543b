/**
 * `mcpkit serve … --auth-issuer` and `mcpkit proxy … --auth-issuer`: the bundled servers and the
 * proxy require access tokens from a real authorization server (oidc-provider, in this process),
 * and the CLI's own client reaches them with `--header 'Authorization: Bearer …'`.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthServer, startAuthServer } from "../helpers/auth-server.js";
import { CLI, json, mcpkit, ROOT, SLOW } from "./run.js";

let as: AuthServer;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  as = await startAuthServer();
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await as?.close();
});

/** Starts `mcpkit …args` and waits for the URL it prints, and the line saying tokens are required. */
function start(
  args: string[],
  listening: RegExp,
): Promise<{ url: string; stderr: () => string; child: ChildProcessWithoutNullStreams }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT });
  children.push(child);
  let stderr = "";
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const found = listening.exec(stderr);
      if (found && stderr.includes("access tokens required"))
        resolve({ url: found[1]!, stderr: () => stderr, child });
    });
    child.on("exit", (code) => reject(new Error(`mcpkit exited with ${code}: ${stderr}`)));
  });
}

const post = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });

describe("mcpkit serve --auth-issuer", SLOW, () => {
  it("requires a token for the server, with the scopes given", async () => {
    const { url, stderr, child } = await start(
      ["serve", "calculator", "--port", "0", "--auth-issuer", as.issuer, "--scopes", "mcp:tools"],
      /mcpkit: calculator listening on (http:\/\/\S+\/mcp)\n/,
    );
    expect(stderr()).toContain(
      `mcpkit: access tokens required: issuer ${as.issuer}, audience ${url}, scopes mcp:tools`,
    );
    const refused = await post(url);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"`,
    );

    const token = await as.token({ resource: url, scope: "mcp:tools" });
    const tools = await mcpkit(["tools", "--json", "--header", `Authorization: Bearer ${token}`, url]);
    expect(tools.code, tools.stderr).toBe(0);
    expect(json(tools).tools.map((tool: { name: string }) => tool.name)).toEqual(["calculator"]);

    const weak = await as.token({ resource: url, scope: "files:read" });
    const refusedCli = await mcpkit(["tools", "--header", `Authorization: Bearer ${weak}`, url]);
    expect(refusedCli.code).toBe(3);
    expect(refusedCli.stderr).toContain("the token lacks scope mcp:tools");
    child.kill("SIGTERM");
  });

  it("refuses bad auth options with a usage error before starting", async () => {
    const cases = [
      [
        ["--auth-audience", "https://mcp.example.com/mcp"],
        /--auth-audience, --scopes and --auth-jwt-typ need --auth-issuer/,
      ],
      [["--auth-jwt-typ", "JWT"], /--auth-audience, --scopes and --auth-jwt-typ need --auth-issuer/],
      [["--auth-issuer", "https://auth.example.com", "--auth-jwt-typ", ","], /auth jwt.typ must list/],
      [
        ["--auth-issuer", "http://auth.example.com"],
        /must be an https: URL \(http: only on a loopback address\)/,
      ],
      [["--auth-issuer", "https://auth.example.com", "--scopes", 'a"b'], /is not a scope/],
    ] as const;
    for (const [options, message] of cases) {
      const run = await mcpkit(["serve", "calculator", ...options]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(message);
    }
  });
});

describe("mcpkit serve --auth-jwt-typ", SLOW, () => {
  const tokenTyped = (url: string, typ: string | undefined) => {
    const now = Math.floor(Date.now() / 1000);
    return as.sign({ iss: as.issuer, sub: "alice", client_id: "app", aud: url, exp: now + 600 }, { typ });
  };

  it("takes at+jwt tokens alone by default, and says how to take those typed JWT", async () => {
    const { url, child } = await start(
      ["serve", "calculator", "--port", "0", "--auth-issuer", as.issuer],
      /mcpkit: calculator listening on (http:\/\/\S+\/mcp)\n/,
    );
    const refused = await mcpkit([
      "tools",
      "--header",
      `Authorization: Bearer ${await tokenTyped(url, "JWT")}`,
      url,
    ]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("the token's typ header is JWT");
    expect(refused.stderr).toContain("jwt: { typ: ['at+jwt', 'JWT'] }");
    const typed = await mcpkit([
      "tools",
      "--header",
      `Authorization: Bearer ${await tokenTyped(url, "at+jwt")}`,
      url,
    ]);
    expect(typed.code, typed.stderr).toBe(0);
    child.kill("SIGTERM");
  });

  it("takes the types it lists, none for untyped tokens", async () => {
    const { url, child } = await start(
      ["serve", "calculator", "--port", "0", "--auth-issuer", as.issuer, "--auth-jwt-typ", "at+jwt,JWT,none"],
      /mcpkit: calculator listening on (http:\/\/\S+\/mcp)\n/,
    );
    for (const typ of ["JWT", undefined, "at+jwt"]) {
      const run = await mcpkit([
        "tools",
        "--header",
        `Authorization: Bearer ${await tokenTyped(url, typ)}`,
        url,
      ]);
      expect(run.code, `${typ}: ${run.stderr}`).toBe(0);
    }
    child.kill("SIGTERM");
  });
});

describe("mcpkit proxy --auth-issuer", SLOW, () => {
  it("requires a token of the proxy's callers", async () => {
    const { url, child } = await start(
      [
        "proxy",
        "--port",
        "0",
        "--auth-issuer",
        as.issuer,
        "--",
        process.execPath,
        CLI,
        "serve",
        "calculator",
      ],
      /mcpkit: proxy listening on (http:\/\/\S+\/mcp)\n/,
    );
    expect((await post(url)).status).toBe(401);
    const token = await as.token({ resource: url, scope: "mcp:tools" });
    const call = await mcpkit([
      "call",
      "calculator",
      "--arg",
      "expression=6*7",
      "--header",
      `Authorization: Bearer ${token}`,
      url,
    ]);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toContain("42");
    child.kill("SIGTERM");
  });
});
