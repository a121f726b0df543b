import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { publishSkill, registerSkillResources, SkillCatalog } from "../../src/extensions/skills/index.js";
import { McpServer } from "../../src/server/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";

const SKILL_MD = "---\nname: git-workflow\ndescription: Follow the team's Git conventions\n---\n\n# Git\n";
const bytes = new Uint8Array([0, 1, 2, 0xfe, 0xff]);
const skill = publishSkill({
  files: {
    "SKILL.md": SKILL_MD,
    "scripts/check.sh": "#!/bin/sh\n",
    "assets/raw.bin": bytes,
    "notes.txt": "\ufeffBOM kept",
  },
});
const sha = (data: Uint8Array) => `sha256:${createHash("sha256").update(data).digest("hex")}`;

let handle: HttpServerHandle;
let client: McpClient;
beforeAll(async () => {
  const server = new McpServer({ name: "skills", version: "1.0.0" });
  registerSkillResources(server, new SkillCatalog([skill]));
  handle = await server.serveHttp({ port: 0 });
  client = await McpClient.connect({ url: handle.url });
});
afterAll(async () => {
  await client?.close();
  await handle?.close();
});

describe("a skill's files as resources of a server, over HTTP", () => {
  it("lists SKILL.md named and described by its frontmatter, as text/markdown, and each file by its path", async () => {
    const resources = await client.listResources();
    expect(resources).toContainEqual({
      uri: "skill://git-workflow/SKILL.md",
      name: "git-workflow",
      description: "Follow the team's Git conventions",
      mimeType: "text/markdown",
      size: Buffer.byteLength(SKILL_MD),
    });
    expect(resources.map((r) => [r.uri, r.name, r.mimeType])).toContainEqual([
      "skill://git-workflow/scripts/check.sh",
      "scripts/check.sh",
      "text/x-shellscript",
    ]);
  });

  it("serves each file's exact bytes, so what a client reads matches the entry's digest", async () => {
    if (skill.entry.resources === "dynamic") throw new Error("unreachable");
    for (const { uri, digest, size } of skill.entry.resources) {
      const { contents } = await client.readResource(uri);
      const content = contents[0]!;
      const read =
        "text" in content ? new TextEncoder().encode(content.text) : Buffer.from(content.blob, "base64");
      expect([uri, sha(read), read.byteLength]).toEqual([uri, digest, size]);
    }
    const { contents } = await client.readResource("skill://git-workflow/assets/raw.bin");
    expect(contents[0]).toEqual({
      uri: "skill://git-workflow/assets/raw.bin",
      mimeType: "application/octet-stream",
      blob: Buffer.from(bytes).toString("base64"),
    });
  });
});
