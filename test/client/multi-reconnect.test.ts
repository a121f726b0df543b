import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { MultiServerClient, type MultiServerEvents, type StdioServerConfig } from "../../src/client/index.js";
import { McpError } from "../../src/jsonrpc/index.js";
import { createCalculatorServer } from "../../src/servers/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import type { StdioClientTransport } from "../../src/transports/stdio/client.js";
import { groupMembers } from "../helpers/processes.js";
import { until } from "../helpers/until.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/multi-search-server.js", import.meta.url));
const search = (label: string): StdioServerConfig => ({ command: process.execPath, args: [FIXTURE, label] });
const FAST = { initialDelay: 50, maxDelay: 200, maxAttempts: 100 };

let clients: MultiServerClient[] = [];
let servers: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await Promise.all(servers.map((server) => server.close()));
  clients = [];
  servers = [];
});

async function connect(...args: Parameters<typeof MultiServerClient.connect>): Promise<MultiServerClient> {
  const client = await MultiServerClient.connect(...args);
  clients.push(client);
  return client;
}

function pidOf(mcp: MultiServerClient, server: string): number {
  return (mcp.client(server).transport as StdioClientTransport).pid!;
}

function record<K extends keyof MultiServerEvents>(mcp: MultiServerClient, event: K): MultiServerEvents[K][] {
  const seen: MultiServerEvents[K][] = [];
  mcp.on(event, (value) => seen.push(value));
  return seen;
}

describe("MultiServerClient: reconnecting", () => {
  it("reconnects a stdio server killed mid-session: the next call succeeds and toolsChanged fires", async () => {
    const mcp = await connect({ alpha: search("alpha"), beta: search("beta") }, { reconnect: FAST });
    const changed = record(mcp, "toolsChanged");
    const [whoami] = mcp.tools({ servers: ["alpha"], include: ["whoami"] });
    const pid = pidOf(mcp, "alpha");
    expect((await whoami!.invoke({})).text).toBe(`alpha ${pid}`);

    // The next call, made as soon as the loss is noticed, waits for the reconnect.
    const next = new Promise<string>((resolve, reject) => {
      mcp.on("stateChanged", ({ server, state }) => {
        if (server === "alpha" && state === "reconnecting") {
          whoami!.invoke({}).then((output) => resolve(output.text), reject);
        }
      });
    });
    process.kill(pid, "SIGKILL");
    const answer = await next;
    const newPid = pidOf(mcp, "alpha");
    expect(newPid).not.toBe(pid);
    expect(answer).toBe(`alpha ${newPid}`);
    expect(changed).toEqual([{ server: "alpha", reason: "reconnected" }]);
    expect(mcp.health().alpha).toMatchObject({ state: "connected", reconnects: 1 });
    expect(mcp.health().alpha!.lastError!.message).toMatch(/SIGKILL/);
    expect(mcp.health().beta).toMatchObject({ state: "connected", reconnects: 0 });
    expect(groupMembers(pid)).toEqual([]);
  });

  it("lists the tools again when a server says they changed, and routes the new one", async () => {
    const mcp = await connect({ alpha: search("alpha"), beta: search("beta") });
    const changed = record(mcp, "toolsChanged");
    expect(mcp.tools().some((tool) => tool.name === "fresh")).toBe(false);
    const [add] = mcp.tools({ servers: ["beta"], include: ["add_tool"] });
    await add!.invoke({ name: "fresh" });
    await until(() => changed.length > 0, { what: "toolsChanged from the group" });
    expect(changed).toEqual([{ server: "beta", reason: "listChanged" }]);
    const fresh = mcp.tools().find((tool) => tool.name === "fresh");
    expect(fresh?.server).toBe("beta");
    expect((await fresh!.invoke({})).text).toBe("beta: fresh");
  });

  it("reconnects an HTTP server whose session cannot be renewed once it is back", async () => {
    const first = await createCalculatorServer().serveHttp();
    servers.push(first);
    const mcp = await connect({ math: { url: first.url } }, { reconnect: FAST });
    const changed = record(mcp, "toolsChanged");
    const [calculator] = mcp.tools();
    expect((await calculator!.invoke({ expression: "1 + 1" })).text).toBe("1 + 1 = 2");

    await first.close();
    await expect(calculator!.invoke({ expression: "2 + 2" })).rejects.toBeInstanceOf(McpError);
    expect(mcp.health().math!.state).toBe("reconnecting");

    servers.push(await createCalculatorServer().serveHttp({ port: first.port }));
    expect((await calculator!.invoke({ expression: "3 + 3" })).text).toBe("3 + 3 = 6");
    expect(changed).toEqual([{ server: "math", reason: "reconnected" }]);
    expect(mcp.health().math).toMatchObject({ state: "connected", reconnects: 1 });
  });

  it("with reconnect: false marks a dead server failed, and a call tries once more", async () => {
    const mcp = await connect({ alpha: search("alpha") }, { reconnect: false });
    const [whoami] = mcp.tools({ include: ["whoami"] });
    process.kill(pidOf(mcp, "alpha"), "SIGKILL");
    await until(() => mcp.health().alpha!.state === "failed", { what: "alpha to be reported failed" });
    expect((await whoami!.invoke({})).text).toBe(`alpha ${pidOf(mcp, "alpha")}`);
    expect(mcp.health().alpha!.state).toBe("connected");
  });
});

describe("MultiServerClient.close", () => {
  it("leaves no child process, wrappers and reconnected servers included", async () => {
    const wrapped: StdioServerConfig = {
      command: "sh",
      args: ["-c", `"${process.execPath}" "${FIXTURE}" wrapped; echo done >&2`],
    };
    const mcp = await connect({ alpha: search("alpha"), wrapped }, { reconnect: FAST });
    const first = pidOf(mcp, "alpha");
    process.kill(first, "SIGKILL");
    await until(() => mcp.health().alpha!.reconnects === 1, { what: "alpha to have reconnected once" });
    const groups = [first, pidOf(mcp, "alpha"), pidOf(mcp, "wrapped")];
    expect(groupMembers(pidOf(mcp, "wrapped")).length).toBeGreaterThanOrEqual(2);
    await mcp.close();
    for (const pgid of groups) expect(groupMembers(pgid)).toEqual([]);
    expect(mcp.health()).toMatchObject({ alpha: { state: "closed" }, wrapped: { state: "closed" } });
    await expect(mcp.tools()[0]!.invoke({})).rejects.toThrow(/closed/);
  });
});
