import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { MultiServerClient } from "../../src/client/multi/index.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { StdioClientTransport } from "../../src/transports/stdio/client.js";
import { alive, groupMembers } from "../helpers/processes.js";
import { until } from "../helpers/until.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const raw = fixture("raw-server.js");
const node = process.execPath;

let clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
});

async function connect(options: Parameters<typeof McpClient.connect>[0]): Promise<McpClient> {
  const client = await McpClient.connect(options);
  clients.push(client);
  return client;
}

const pidOf = (client: McpClient) => (client.transport as StdioClientTransport).pid!;

describe("stdio client transport", () => {
  it("adds env to the safelisted part of the parent's environment and honours cwd", async () => {
    const client = await connect({ command: node, args: [raw, "env"], env: { FOO: "bar" }, cwd: "/tmp" });
    const info = JSON.parse((await client.callTool("anything")).text());
    expect(info).toEqual({ FOO: "bar", hasPath: true, cwd: "/tmp" });
  });

  describe("the server's environment", () => {
    const saved = { ...process.env };
    afterEach(() => {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    });

    async function environmentOf(options: { inheritEnv?: boolean; env?: Record<string, string> } = {}) {
      const client = await connect({ command: node, args: [raw, "env-all"], ...options });
      return JSON.parse((await client.callTool("anything")).text()).env as Record<string, string>;
    }

    it("is a safelist of the parent's by default: no credentials, no function values", async () => {
      process.env.AWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI";
      process.env.GITHUB_TOKEN = "ghp_secret";
      process.env.TERM = "() { :; }; echo pwned";
      const env = await environmentOf({ env: { FOO: "bar" } });
      expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
      expect(env.GITHUB_TOKEN).toBeUndefined();
      expect(env.TERM).toBeUndefined();
      expect(env.PATH).toBe(process.env.PATH);
      expect(env.HOME).toBe(process.env.HOME);
      expect(env.FOO).toBe("bar");
      const allowed = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "FOO"];
      // What the child's runtime adds on its own aside.
      expect(Object.keys(env).filter((key) => !allowed.includes(key) && !key.startsWith("NODE_"))).toEqual(
        [],
      );
    });

    it("is the parent's whole environment with inheritEnv", async () => {
      process.env.AWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI";
      const env = await environmentOf({ inheritEnv: true, env: { FOO: "bar" } });
      expect(env.AWS_SECRET_ACCESS_KEY).toBe("wJalrXUtnFEMI");
      expect(env.FOO).toBe("bar");
    });

    it("takes inheritEnv from an mcpServers entry", async () => {
      process.env.MCPKIT_TEST_SECRET = "kept";
      const mcp = await MultiServerClient.connect({
        safe: { command: node, args: [raw, "env-all"] },
        open: { command: node, args: [raw, "env-all"], inheritEnv: true },
      });
      clients.push(mcp as unknown as McpClient);
      const envOf = async (name: string) =>
        JSON.parse((await mcp.client(name).callTool("anything")).text()).env as Record<string, string>;
      expect((await envOf("safe")).MCPKIT_TEST_SECRET).toBeUndefined();
      expect((await envOf("open")).MCPKIT_TEST_SECRET).toBe("kept");
    });
  });

  it("skips a non-JSON line the server writes, and keeps the connection", async () => {
    const client = await connect({ command: node, args: [raw, "garbage"] });
    const reported: Error[] = [];
    client.on("protocolError", (error) => reported.push(error));
    const error = await client.callTool("x", {}, { timeout: 500 }).catch((e) => e);
    expect(error.code).toBe(ErrorCode.RequestTimeout);
    expect(reported.map((e) => e.message)).toEqual([expect.stringContaining("this is not json")]);
    await client.ping();
  });

  it("rejects pending calls when the server writes a line over maxMessageSize, with the stderr tail", async () => {
    const client = await connect({ command: node, args: [raw, "huge"], maxMessageSize: 1000 });
    const error = await client.callTool("x").catch((e) => e);
    expect(error.code).toBe(ErrorCode.ConnectionClosed);
    expect(error.message).toContain("message longer than the limit of 1000 characters");
    expect(error.message).toContain("about to misbehave");
    await expect(client.callTool("x")).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed });
  });

  it("rejects pending calls when the server dies mid-call, with its exit code and stderr", async () => {
    const client = await connect({ command: node, args: [raw, "die"], requestTimeout: 60_000 });
    const pid = pidOf(client);
    const error = await client.callTool("x").catch((e) => e);
    expect(error.code).toBe(ErrorCode.ConnectionClosed);
    expect(error.message).toContain("the server process exited (code 3)");
    expect(error.message).toContain("fatal: out of memory");
    expect(client.isClosed).toBe(true);
    expect(alive(pid)).toBe(false);
  });

  it("fails to connect with a clear error when the command does not exist", async () => {
    await expect(McpClient.connect({ command: "/nonexistent/mcp-server" })).rejects.toThrow(
      /Could not start \/nonexistent\/mcp-server: spawn \/nonexistent\/mcp-server ENOENT/,
    );
  });

  it("forwards each stderr line to onStderr", async () => {
    const lines: string[] = [];
    const client = await connect({
      command: node,
      args: [raw, "grandchild"],
      onStderr: (l) => lines.push(l),
    });
    await client.ping();
    await until(() => lines.some((l) => l.startsWith("grandchild ")), {
      what: "the grandchild to report its pid",
    });
  });

  it("leaves no process behind a `sh -c` wrapper after close()", async () => {
    const client = await connect({ command: "sh", args: ["-c", `"${node}" "${raw}" grandchild`] });
    const pgid = pidOf(client);
    await client.ping();
    expect(groupMembers(pgid).length).toBeGreaterThanOrEqual(2);
    await client.close();
    expect(groupMembers(pgid)).toEqual([]);
  });

  it("leaves no process behind npx after close()", async () => {
    const client = await connect({ command: "npx", args: ["--no-install", "mcp-server-everything"] });
    const pgid = pidOf(client);
    expect((await client.listTools()).length).toBeGreaterThan(0);
    await client.close();
    expect(groupMembers(pgid)).toEqual([]);
  });

  it("escalates to SIGKILL for a server that ignores the end of stdin and SIGTERM", async () => {
    const client = await connect({ command: node, args: [raw, "stubborn"], closeTimeout: 300 });
    const pgid = pidOf(client);
    await client.ping();
    expect(groupMembers(pgid).length).toBeGreaterThanOrEqual(3);
    await client.close();
    expect(groupMembers(pgid)).toEqual([]);
  });

  it("ends the server's process tree when the client process gets SIGTERM", async () => {
    const holder = spawn(node, [fixture("client-holder.js"), "sh", "-c", `"${node}" "${raw}" grandchild`], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const line = await new Promise<string>((resolve) =>
      holder.stdout.once("data", (d) => resolve(String(d))),
    );
    const pgid = JSON.parse(line).pid as number;
    expect(groupMembers(pgid).length).toBeGreaterThanOrEqual(2);
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      holder.once("exit", (_c, s) => resolve(s)),
    );
    holder.kill("SIGTERM");
    // The client still dies of the signal, as it would without mcpkit.
    expect(await exited).toBe("SIGTERM");
    await until(() => groupMembers(pgid).length === 0, { what: "every process of the group to exit" });
  });
});
