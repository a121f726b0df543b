/**
 * Resource templates as a server registers them: a reserved path followed by a query, the shape of
 * file-like resources with a revision, is served in both eras.
 */
import { describe, expect, it } from "vitest";
import { McpServer } from "../../src/server/server.js";
import { connectInMemory } from "../helpers/connect.js";

describe("a resource template with a reserved path and a query", () => {
  it.each(["2025-11-25", "2026-07-28"] as const)(
    "reads file:///{+path}{?rev} (%s)",
    async (protocolVersion) => {
      const server = new McpServer({ name: "files", version: "1" }).resourceTemplate(
        "file:///{+path}{?rev}",
        { name: "file" },
        (_uri, { path, rev }) => `${path} at ${rev ?? "head"}`,
      );
      const { client, log } = await connectInMemory(server, { protocolVersion });
      const texts = async (uri: string) =>
        (await client.readResource(uri)).contents.map((c) => ("text" in c ? c.text : ""));
      expect(await texts("file:///src/main.ts?rev=42")).toEqual(["src/main.ts at 42"]);
      expect(await texts("file:///docs/read%20me.md")).toEqual(["docs/read me.md at head"]);
      expect(log.problems(protocolVersion)).toEqual([]);
      await client.close();
    },
  );
});
