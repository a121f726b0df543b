/**
 * A resource URI over `maxUriLength` is refused before any template sees it — also on the way in
 * that looks up the scopes a resource needs, which runs before the handler.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { McpServer } from "../../src/server/index.js";
import { UriTemplate } from "../../src/util/uri-template.js";
import { connectInMemory } from "../helpers/connect.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the URI length cap", () => {
  for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
    it(`comes before the scope lookup of a scoped template (${protocolVersion})`, async () => {
      const server = new McpServer({ name: "scoped", version: "1" }, { maxUriLength: 100 })
        .resourceTemplate("notes://{+path}", { name: "note" }, (_uri, { path }) => `note ${path}`, {
          scopes: ["notes:read"],
        })
        .resourceTemplate("files:///{dir}/{name}", { name: "file" }, () => "file");
      const { client } = await connectInMemory(server, { protocolVersion });
      const match = vi.spyOn(UriTemplate.prototype, "match");
      // Shaped to match the scoped template, so a lookup that matched would answer "Forbidden".
      const uri = `notes://${"{a}/".repeat(250_000)}`;
      const error = await client.readResource(uri).catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: ErrorCode.InvalidParams,
        message: `Invalid params: the URI is ${uri.length} characters long; this server accepts at most 100`,
      });
      // No template was matched against it: the work the cap bounds never started.
      expect(match.mock.calls.filter(([given]) => given.length > 100)).toEqual([]);
      // A URI within the cap still reaches the scope check.
      await expect(client.readResource("notes://a/b")).rejects.toMatchObject({
        code: ErrorCode.ServerError,
        message: expect.stringContaining("needs scope notes:read"),
      });
      await client.close();
    });
  }
});
