/**
 * Logging as the server role sends it: from a handler (`ctx.log`) and server-wide (`server.log`),
 * each filtered by the level the client set, against an `McpServer` built here.
 */
import { describe, expect, it } from "vitest";
import type { LoggingMessageNotificationParams } from "../../src/protocol/index.js";
import { McpServer } from "../../src/server/index.js";
import { connectInMemory, inMemorySessions, rejection, stillAlive } from "../helpers/connect.js";

const connect = inMemorySessions();

/** A tool that logs once at each of three levels, then answers. */
function loggingServer(): McpServer {
  return new McpServer({ name: "t", version: "1" }).tool("chatty", {}, (_args, ctx) => {
    ctx.log("debug", "details", "chatty");
    ctx.log("info", { step: 1 }, "chatty");
    ctx.log("error", "trouble");
    return "done";
  });
}

describe("McpServer logging", () => {
  it("sends a handler's messages at or above the level the client set", async () => {
    const { client } = await connect(loggingServer());
    expect(client.capabilities.logging).toEqual({});
    const logs: LoggingMessageNotificationParams[] = [];
    client.on("log", (entry) => logs.push(entry));

    // Before any level is set, everything is sent.
    expect((await client.callTool("chatty")).text()).toBe("done");
    expect(logs).toEqual([
      { level: "debug", logger: "chatty", data: "details" },
      { level: "info", logger: "chatty", data: { step: 1 } },
      { level: "error", data: "trouble" },
    ]);

    logs.length = 0;
    await client.setLoggingLevel("warning");
    await client.callTool("chatty");
    expect(logs).toEqual([{ level: "error", data: "trouble" }]);

    logs.length = 0;
    await client.setLoggingLevel("emergency");
    await client.callTool("chatty");
    expect(logs).toEqual([]);

    logs.length = 0;
    await client.setLoggingLevel("info");
    await client.callTool("chatty");
    expect(logs.map((entry) => entry.level)).toEqual(["info", "error"]);
  });

  it("filters server-wide messages by each session's own level", async () => {
    const server = loggingServer();
    const quiet = await connect(server);
    const loud = await connect(server);
    const heard = { quiet: [] as string[], loud: [] as string[] };
    quiet.client.on("log", (entry) => heard.quiet.push(`${entry.level} ${String(entry.data)}`));
    loud.client.on("log", (entry) => heard.loud.push(`${entry.level} ${String(entry.data)}`));
    await quiet.client.setLoggingLevel("error");
    await loud.client.setLoggingLevel("debug");

    server.log("info", "started", "server");
    server.log("critical", "failing", "server");
    await expect.poll(() => heard.loud).toEqual(["info started", "critical failing"]);
    // Sent before the critical one on the same pipe: had it passed, it would be here by now.
    await expect.poll(() => heard.quiet).toEqual(["critical failing"]);
  });

  it("refuses a level the spec does not name with -32602", async () => {
    // Connected apart: the request is off-schema on purpose, which the check after each test refuses.
    const { client } = await connectInMemory(loggingServer());
    const error = await rejection(client.request("logging/setLevel", { level: "verbose" }));
    expect(error.code).toBe(-32602);
    await stillAlive(client);
    await client.close();
  });
});
