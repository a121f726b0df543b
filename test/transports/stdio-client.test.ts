import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { StdioClientTransport } from "../../src/transports/stdio/client.js";
import { alive, eventually, groupMembers } from "../helpers/processes.js";

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
  it("adds env to the parent's environment and honours cwd", async () => {
    const client = await connect({ command: node, args: [raw, "env"], env: { FOO: "bar" }, cwd: "/tmp" });
    const info = JSON.parse((await client.callTool("anything")).text());
    expect(info).toEqual({ FOO: "bar", hasPath: true, cwd: "/tmp" });
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
    expect(await eventually(() => lines.some((l) => l.startsWith("grandchild ")))).toBe(true);
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
    expect(await eventually(() => groupMembers(pgid).length === 0)).toBe(true);
  });
});
