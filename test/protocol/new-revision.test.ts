/**
 * A new revision that adds one method is its module, its method's types and its rows: the
 * revision's row in the revision table, the method's row in the server's dispatch table. This test
 * writes a throwaway revision, 2099-01-01 (2026-07-28 and `notes/echo`), and adds it that way, the
 * two rows mocked in here, touching nothing else: the version lists, the latest version, the era's
 * method sets and the header rules follow from the table, and a client and a server speak it end
 * to end, as the newest revision, in memory and over HTTP.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import {
  LATEST_LEGACY_VERSION,
  LATEST_MODERN_VERSION,
  MODERN_VERSIONS,
  type ProtocolVersion,
  revisionOf,
  SUPPORTED_VERSIONS,
} from "../../src/protocol/revisions/index.js";
import { McpServer } from "../../src/server/server.js";
import type { HttpServerHandle } from "../../src/transports/http/server/listen.js";
import { createMemoryTransportPair } from "../../src/transports/memory/pair.js";

/** The new method's types (in a real revision: `src/protocol/types/`). */
interface EchoNoteParams extends Record<string, unknown> {
  text: string;
}
interface EchoNoteResult {
  echoed: string;
}

// The revision's module and its row in the revision table (`src/protocol/revisions/table.ts`).
vi.mock("../../src/protocol/revisions/table.js", async (importOriginal) => {
  const { REVISION_TABLE } = await importOriginal<typeof import("../../src/protocol/revisions/table.js")>();
  const { deriveRevision } = await import("../../src/protocol/revisions/revision.js");
  const revision_2099_01_01 = deriveRevision(REVISION_TABLE[0], {
    version: "2099-01-01",
    add: { clientRequests: ["notes/echo"] },
  });
  return { REVISION_TABLE: [revision_2099_01_01, ...REVISION_TABLE] };
});

// The method's row in the server's dispatch table (`src/server/core-rows.ts`).
vi.mock("../../src/server/dispatch/core-rows.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/server/dispatch/core-rows.js")>();
  const { row } = await import("../../src/server/dispatch/dispatch.js");
  const echo = (params: Record<string, unknown>): EchoNoteResult => ({ echoed: String(params.text) });
  return {
    ...original,
    coreRows: (host: Parameters<typeof original.coreRows>[0]) => [
      ...original.coreRows(host),
      row("notes/echo", undefined, echo),
    ],
  };
});

const NEW = "2099-01-01" as ProtocolVersion;

function server(): McpServer {
  return new McpServer({ name: "notes", version: "1" }).tool("hello", {}, () => "hello");
}

let handle: HttpServerHandle | undefined;
let clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.map((client) => client.close()));
  clients = [];
  await handle?.close();
  handle = undefined;
});

async function inMemory(protocolVersion?: ProtocolVersion): Promise<McpClient> {
  const [clientSide, serverSide] = createMemoryTransportPair();
  await server().connect(serverSide);
  const client = await McpClient.connect({
    transport: clientSide,
    ...(protocolVersion ? { protocolVersion } : {}),
  });
  clients.push(client);
  return client;
}

describe("a revision added as its module and its rows", () => {
  it("is derived into the versions, the newest stateless one, and the era's methods", () => {
    expect(SUPPORTED_VERSIONS[0]).toBe(NEW);
    expect(MODERN_VERSIONS).toEqual([NEW, "2026-07-28"]);
    expect(LATEST_MODERN_VERSION).toBe(NEW);
    expect(LATEST_LEGACY_VERSION).toBe("2025-11-25");
    const revision = revisionOf(NEW)!;
    expect(revision.clientRequests.has("notes/echo")).toBe(true);
    // What it does not change, it has from 2026-07-28: the tasks wire form, the header rules.
    expect(revision.tasks).toEqual(revisionOf("2026-07-28")!.tasks);
    expect(revision.headers).toEqual({ versionPerRequest: true, mirrored: true, sessionId: false });
  });

  it("is what a client and a server speak by default, and serves its method (in memory)", async () => {
    const client = await inMemory();
    expect(client.protocolVersion).toBe(NEW);
    const params: EchoNoteParams = { text: "a note" };
    expect(await client.request<EchoNoteResult>("notes/echo", params)).toMatchObject({ echoed: "a note" });
    // The rest of the revision is 2026-07-28's.
    expect((await client.callTool("hello")).text()).toBe("hello");
  });

  it("serves its method over HTTP, with the header rules it inherits", async () => {
    handle = await server().serveHttp();
    const client = await McpClient.connect({ url: handle.url });
    clients.push(client);
    expect(client.protocolVersion).toBe(NEW);
    expect(await client.request<EchoNoteResult>("notes/echo", { text: "over HTTP" })).toMatchObject({
      echoed: "over HTTP",
    });
  });

  it("leaves the method out of the revisions before it", async () => {
    const client = await inMemory("2026-07-28");
    expect(client.protocolVersion).toBe("2026-07-28");
    await expect(client.request("notes/echo", { text: "too early" })).rejects.toMatchObject({
      code: ErrorCode.MethodNotFound,
    });
  });
});
