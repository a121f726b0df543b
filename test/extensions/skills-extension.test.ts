import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import {
  listSkills,
  publishSkill,
  readSkill,
  registerSkillResources,
  SKILLS_EXTENSION,
  SkillCatalog,
  skills,
} from "../../src/extensions/skills/index.js";
import { McpServer } from "../../src/server/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";

const catalog = new SkillCatalog([
  publishSkill({
    prefix: "acme",
    files: {
      "SKILL.md":
        "---\nname: refunds\ndescription: Process refund requests\nmetadata:\n  version: '2'\n---\n\nSee templates/.\n",
      "templates/email.md": "Dear customer,",
    },
  }),
]);

let handle: HttpServerHandle;
beforeAll(async () => {
  const server = new McpServer(
    { name: "docs", version: "1.0.0" },
    { extensions: [skills(catalog, { cache: { ttlMs: 60_000, cacheScope: "public" } })] },
  );
  registerSkillResources(server, catalog);
  handle = await server.serveHttp({ port: 0 });
});
afterAll(async () => handle?.close());

describe.each(["2025-11-25", "2026-07-28"] as const)(
  "the skills extension between our server and client, %s",
  (protocolVersion) => {
    let client: McpClient;
    beforeAll(async () => {
      client = await McpClient.connect({ url: handle.url, protocolVersion });
    });
    afterAll(async () => client?.close());

    it("declares the extension with directoryRead beside the resources capability", () => {
      expect(client.capabilities.extensions?.[SKILLS_EXTENSION]).toEqual({ directoryRead: true });
      expect(client.capabilities.resources).toBeDefined();
    });

    it("lists and loads a skill, verified, without the client declaring the extension", async () => {
      const { skills: listed, rejected } = await listSkills(client);
      expect([listed.map((s) => s.uri), rejected]).toEqual([["skill://acme/refunds/SKILL.md"], []]);
      const skill = await readSkill(client, listed[0]!);
      expect(skill.frontmatter).toEqual({
        name: "refunds",
        description: "Process refund requests",
        metadata: { version: "2" },
      });
      expect(await skill.readText("templates/email.md")).toBe("Dear customer,");
    });

    it("answers skills/get with caching hints in 2026-07-28, directory reads, and -32602 for what it does not serve", async () => {
      const got = await client.request<Record<string, unknown>>("skills/get", {
        uri: "skill://acme/refunds/SKILL.md",
      });
      if (protocolVersion === "2026-07-28")
        expect(got).toMatchObject({ resultType: "complete", ttlMs: 60_000, cacheScope: "public" });
      else expect(got.ttlMs).toBeUndefined();
      const dir = await client.request<{ resources: unknown[] }>("resources/directory/read", {
        uri: "skill://acme/refunds",
      });
      expect(dir.resources).toContainEqual({
        uri: "skill://acme/refunds/templates",
        name: "templates",
        mimeType: "inode/directory",
      });
      await expect(client.request("skills/get", { uri: "skill://acme/none/SKILL.md" })).rejects.toMatchObject(
        { code: -32602 },
      );
      await expect(
        client.request("resources/directory/read", { uri: "skill://acme/refunds/SKILL.md" }),
      ).rejects.toMatchObject({
        code: -32602,
      });
    });
  },
);
