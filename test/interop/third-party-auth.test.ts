/**
 * Third-party peers and a protected mcpkit server (a real authorization server, oidc-provider,
 * issuing `at+jwt` access tokens): the AI SDK's MCP client (`@ai-sdk/mcp`) and `mcp-remote` (a stdio
 * bridge to a remote server, as desktop hosts run it) calling with a bearer token; and mcpkit's own
 * OAuth client signing in, with dynamic registration and PKCE, at the official SDK's demo
 * authorization server.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createMCPClient } from "@ai-sdk/mcp";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { McpServer } from "../../src/server/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import { type AuthServer, startAuthServer } from "../helpers/auth-server.js";

const MCP_REMOTE = fileURLToPath(new URL("../../node_modules/mcp-remote/dist/proxy.js", import.meta.url));
const DEMO_AS = fileURLToPath(new URL("../fixtures/sdk-demo-auth-server.mjs", import.meta.url));

const whoami = () =>
  new McpServer({ name: "notes", version: "1.0.0" }).tool(
    "whoami",
    { description: "Who calls" },
    (_args, ctx) => `${ctx.auth?.clientId} (${ctx.auth?.scopes.join(" ")})`,
  );

describe("third-party clients against a protected mcpkit server", () => {
  let as: AuthServer;
  let handle: HttpServerHandle;
  let token: string;
  beforeAll(async () => {
    as = await startAuthServer();
    handle = await whoami().serveHttp({ auth: { issuer: as.issuer, scopes: ["mcp:tools"] } });
    token = await as.token({ resource: handle.url, scope: "mcp:tools" });
  });
  afterAll(async () => {
    await handle?.close();
    await as?.close();
  });

  it("@ai-sdk/mcp 2.0.99 lists and calls its tools with the token", async () => {
    const client = await createMCPClient({
      transport: { type: "http", url: handle.url, headers: { Authorization: `Bearer ${token}` } },
    });
    try {
      const tools = await client.tools();
      expect(Object.keys(tools)).toEqual(["whoami"]);
      const result = (await tools.whoami!.execute!({}, { toolCallId: "1", messages: [], context: {} })) as {
        content: { text: string }[];
      };
      expect(result.content[0]!.text).toBe("agent (mcp:tools)");
    } finally {
      await client.close();
    }
  });

  it("@ai-sdk/mcp without a token is refused with the server's 401", async () => {
    await expect(createMCPClient({ transport: { type: "http", url: handle.url } })).rejects.toThrow();
  });

  it("mcp-remote 0.15.1 bridges it to stdio with the token", async () => {
    const configDir = mkdtempSync(join(tmpdir(), "mcp-remote-"));
    onTestFinished(() => rmSync(configDir, { recursive: true, force: true }));
    const client = await McpClient.connect({
      command: process.execPath,
      args: [MCP_REMOTE, handle.url, "--header", `Authorization:Bearer ${token}`, "--transport", "http-only"],
      // Its state in a folder of the test's own, not the user's ~/.mcp-auth.
      env: { MCP_REMOTE_CONFIG_DIR: configDir },
    });
    try {
      expect((await client.callTool("whoami", {})).text()).toBe("agent (mcp:tools)");
    } finally {
      await client.close();
    }
  });
});

describe("mcpkit's OAuth client at the official SDK's demo authorization server", () => {
  let demo: ChildProcess | undefined;
  afterAll(() => {
    demo?.kill();
  });

  it("registers, signs in with PKCE and calls a server that introspects the demo's tokens", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const issuer = new URL(`http://localhost:${port}/`);
    const handle = await whoami().serveHttp({
      auth: {
        issuer: issuer.href,
        // The demo's metadata names no introspection endpoint; its /introspect asks for no credentials.
        introspection: {
          endpoint: new URL("/introspect", issuer).href,
          clientId: "mcpkit",
          clientSecret: "unused",
        },
        scopes: ["mcp:tools"],
      },
    });
    try {
      const started = spawn(process.execPath, [DEMO_AS, String(port), handle.url], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      demo = started;
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: started.stdout! }).on("line", (line) => {
          if (line.includes(`listening on port ${port}`)) resolve();
        });
        started.once("exit", (code) =>
          reject(new Error(`the demo authorization server exited with ${code}`)),
        );
      });
      const client = await McpClient.connect({
        url: handle.url,
        auth: {
          // The demo signs the user in at once: its authorization endpoint redirects straight back.
          onAuthorizationUrl: async (url) =>
            (await fetch(url, { redirect: "manual" })).headers.get("location") ?? undefined,
        },
      });
      try {
        expect((await client.callTool("whoami", {})).text()).toMatch(/^[0-9a-f-]{36} \(mcp:tools\)$/);
      } finally {
        await client.close();
      }
    } finally {
      await handle.close();
    }
  });
});
