/**
 * Resources as the server role serves them: reads of what a handler returns, templates, pages,
 * subscriptions and the errors a client meets, against an `McpServer` built here.
 */
import { describe, expect, it } from "vitest";
import { ErrorCode, McpError } from "../../src/jsonrpc/index.js";
import type { ListResourcesResult, ListResourceTemplatesResult } from "../../src/protocol/index.js";
import { McpServer } from "../../src/server/index.js";
import { inMemorySessions, rejection, stillAlive } from "../helpers/connect.js";

const connect = inMemorySessions();
const ERAS = ["2025-11-25", "2026-07-28"] as const;

describe("McpServer resources: reads", () => {
  it.each(ERAS)(
    "shapes what a handler returns, with the registered MIME type (%s)",
    async (protocolVersion) => {
      const server = new McpServer({ name: "t", version: "1" })
        .resource("test://text", { name: "text", mimeType: "text/plain" }, () => "hello")
        .resource("test://bytes", { name: "bytes", mimeType: "application/octet-stream" }, () =>
          Uint8Array.of(0, 1, 255),
        )
        .resource("test://one", { name: "one", mimeType: "text/plain" }, (uri) => ({
          uri,
          mimeType: "text/markdown",
          text: "# one",
        }))
        .resource("test://several", { name: "several" }, () => [
          { uri: "test://several#a", text: "a" },
          { uri: "test://several#b", blob: "Ag==" },
        ])
        .resource("test://whole", { name: "whole" }, (uri) => ({
          contents: [{ uri, text: "whole" }],
          _meta: { "example.com/origin": "cache" },
        }));
      const { client } = await connect(server, { protocolVersion });
      // 2026-07-28 adds caching fields and the server's _meta beside the contents.
      expect((await client.readResource("test://text")).contents).toEqual([
        { uri: "test://text", mimeType: "text/plain", text: "hello" },
      ]);
      expect((await client.readResource("test://bytes")).contents).toEqual([
        { uri: "test://bytes", mimeType: "application/octet-stream", blob: "AAH/" },
      ]);
      // A content with its own MIME type keeps it.
      expect((await client.readResource("test://one")).contents).toEqual([
        { uri: "test://one", mimeType: "text/markdown", text: "# one" },
      ]);
      expect((await client.readResource("test://several")).contents).toEqual([
        { uri: "test://several#a", text: "a" },
        { uri: "test://several#b", blob: "Ag==" },
      ]);
      expect(await client.readResource("test://whole")).toMatchObject({
        contents: [{ uri: "test://whole", text: "whole" }],
        _meta: { "example.com/origin": "cache" },
      });
    },
  );

  it.each(ERAS)(
    "reads a templated resource with the variables its URI matched (%s)",
    async (protocolVersion) => {
      const seen: unknown[] = [];
      const server = new McpServer({ name: "t", version: "1" }).resourceTemplate(
        "test://template/{id}/data",
        { name: "template", mimeType: "application/json" },
        (uri, variables) => {
          seen.push([uri, variables]);
          return JSON.stringify({ id: variables.id });
        },
      );
      const { client } = await connect(server, { protocolVersion });
      expect((await client.readResource("test://template/123/data")).contents).toEqual([
        { uri: "test://template/123/data", mimeType: "application/json", text: '{"id":"123"}' },
      ]);
      // Variables arrive decoded.
      await client.readResource("test://template/a%20b/data");
      expect(seen).toEqual([
        ["test://template/123/data", { id: "123" }],
        ["test://template/a%20b/data", { id: "a b" }],
      ]);
    },
  );

  it.each([
    ["2025-11-25", -32002],
    // 2026-07-28 has no code of its own for it.
    ["2026-07-28", -32602],
  ] as const)(
    "answers an unknown resource with the era's code, naming the URI (%s: %d)",
    async (protocolVersion, code) => {
      const server = new McpServer({ name: "t", version: "1" })
        .resource("test://known", { name: "known" }, () => "known")
        .resourceTemplate("test://catalog/{category}/{item}", { name: "catalog" }, (uri, { item }) => {
          // A template may match a URI and still have nothing there.
          if (item !== "apple")
            throw new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
          return "apple";
        });
      const { client } = await connect(server, { protocolVersion });
      for (const uri of ["test://unknown", "test://catalog/fruits/carrot"]) {
        const error = await rejection(client.readResource(uri));
        expect(error.code).toBe(code);
        expect(error.message).toBe(`Resource not found: ${uri}`);
        expect(error.data).toEqual({ uri });
        await stillAlive(client);
      }
    },
  );
});

describe("McpServer resources: lists", () => {
  it.each(ERAS)(
    "lists fixed and template-listed resources in URI order, page by page (%s)",
    async (protocolVersion) => {
      const server = new McpServer({ name: "t", version: "1" }, { pageSize: 2 })
        .resource("test://c", { name: "c" }, () => "c")
        .resource("test://a", { name: "a", title: "A", annotations: { priority: 0.5 } }, () => "a")
        .resourceTemplate("test://items/{id}", { name: "item" }, (_uri, { id }) => `item ${id}`, {
          list: () => [
            { uri: "test://items/2", name: "item 2" },
            { uri: "test://items/1", name: "item 1" },
          ],
        })
        .resource("test://b", { name: "b" }, () => "b");
      const { client } = await connect(server, { protocolVersion });
      const first = await client.request<ListResourcesResult>("resources/list", {});
      expect(first.resources.map((r) => r.uri)).toEqual(["test://a", "test://b"]);
      expect(first.resources[0]).toEqual({
        uri: "test://a",
        name: "a",
        title: "A",
        annotations: { priority: 0.5 },
      });
      expect(first.nextCursor).toBeTypeOf("string");
      const second = await client.request<ListResourcesResult>("resources/list", {
        cursor: first.nextCursor,
      });
      expect(second.resources.map((r) => r.uri)).toEqual(["test://c", "test://items/1"]);
      expect((await client.listResources()).map((r) => r.uri)).toEqual([
        "test://a",
        "test://b",
        "test://c",
        "test://items/1",
        "test://items/2",
      ]);
      const forged = await rejection(client.request("resources/list", { cursor: "!!not a cursor" }));
      expect(forged.code).toBe(-32602);
      await stillAlive(client);
    },
  );

  it.each(ERAS)("lists templates in template order, page by page (%s)", async (protocolVersion) => {
    const server = new McpServer({ name: "t", version: "1" }, { pageSize: 2 });
    for (const name of ["c", "a", "b"])
      server.resourceTemplate(`test://${name}/{id}`, { name, mimeType: "text/plain" }, () => name);
    const { client } = await connect(server, { protocolVersion });
    const first = await client.request<ListResourceTemplatesResult>("resources/templates/list", {});
    expect(first.resourceTemplates).toEqual([
      { uriTemplate: "test://a/{id}", name: "a", mimeType: "text/plain" },
      { uriTemplate: "test://b/{id}", name: "b", mimeType: "text/plain" },
    ]);
    expect(first.nextCursor).toBeTypeOf("string");
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual([
      "test://a/{id}",
      "test://b/{id}",
      "test://c/{id}",
    ]);
    const forged = await rejection(client.request("resources/templates/list", { cursor: "!!not a cursor" }));
    expect(forged.code).toBe(-32602);
  });

  it("tells connected clients when resources are added or removed", async () => {
    const server = new McpServer({ name: "t", version: "1" }).resource("test://a", { name: "a" }, () => "a");
    const { client, log } = await connect(server);
    server
      .resource("test://b", { name: "b" }, () => "b")
      .resourceTemplate("test://t/{x}", { name: "t" }, () => "t");
    expect(server.removeResource("test://a")).toBe(true);
    expect(server.removeResource("test://t/{x}")).toBe(true);
    expect(server.removeResource("test://none")).toBe(false);
    expect((await client.listResources()).map((r) => r.uri)).toEqual(["test://b"]);
    expect(await client.listResourceTemplates()).toEqual([]);
    const changes = log.entries.filter(
      (e) => (e.message as { method?: string }).method === "notifications/resources/list_changed",
    );
    expect(changes.length).toBeGreaterThan(0);
    await expect(client.readResource("test://a")).rejects.toMatchObject({ code: -32002 });
  });

  it("refuses a second resource or template of one URI, and a completer of no variable", () => {
    const server = new McpServer({ name: "t", version: "1" })
      .resource("test://a", { name: "a" }, () => "a")
      .resourceTemplate("test://t/{x}", { name: "t" }, () => "t");
    expect(() => server.resource("test://a", { name: "again" }, () => "a")).toThrow(
      'A resource with URI "test://a" is already registered',
    );
    expect(() => server.resourceTemplate("test://t/{x}", { name: "again" }, () => "t")).toThrow(
      'A resource template "test://t/{x}" is already registered',
    );
    expect(() =>
      server.resourceTemplate("test://u/{x}", { name: "u" }, () => "u", {
        complete: { y: () => [] },
      } as never),
    ).toThrow('Template "test://u/{x}" has no variable "y" to complete');
  });
});

describe("McpServer resources: subscriptions", () => {
  it("tells a subscriber when a resource changes, and stops after unsubscribe", async () => {
    const server = new McpServer({ name: "t", version: "1" })
      .resource("test://watched", { name: "watched" }, () => "watched")
      .resource("test://other", { name: "other" }, () => "other")
      .resourceTemplate("test://rows/{id}", { name: "row" }, (_uri, { id }) => `row ${id}`);
    const { client } = await connect(server);
    expect(client.capabilities.resources).toEqual({ subscribe: true, listChanged: true });
    const updates: string[] = [];
    client.on("resourceUpdated", ({ uri }) => updates.push(uri));

    await client.subscribeResource("test://watched");
    // Not subscribed: nobody is told.
    server.resourceUpdated("test://other");
    server.resourceUpdated("test://watched");
    await expect.poll(() => updates).toEqual(["test://watched"]);

    // A URI a template matches can be watched too.
    await client.subscribeResource("test://rows/7");
    server.resourceUpdated("test://rows/7");
    await expect.poll(() => updates).toEqual(["test://watched", "test://rows/7"]);

    await client.unsubscribeResource("test://watched");
    server.resourceUpdated("test://watched");
    // An update sent after the one above arrives after it: when it is here, the other would be too.
    server.resourceUpdated("test://rows/7");
    await expect.poll(() => updates).toEqual(["test://watched", "test://rows/7", "test://rows/7"]);
  });

  it("refuses a subscription to an unknown resource with -32002", async () => {
    const server = new McpServer({ name: "t", version: "1" }).resource("test://a", { name: "a" }, () => "a");
    const { client } = await connect(server);
    const error = await rejection(client.subscribeResource("test://nowhere"));
    expect(error.code).toBe(-32002);
    expect(error.message).toBe("Resource not found: test://nowhere");
    expect(error.data).toEqual({ uri: "test://nowhere" });
    await stillAlive(client);
  });
});
