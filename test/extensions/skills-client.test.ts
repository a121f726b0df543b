import { afterEach, describe, expect, it } from "vitest";
import {
  entryProblem,
  getSkill,
  listSkills,
  publishSkill,
  readSkill,
  type Skill,
  SkillCatalog,
  SkillError,
  skillsCapability,
} from "../../src/extensions/skills/index.js";
import { connectSkillsPeer, type SkillsPeer } from "./skills-peer.js";

const SKILL_MD =
  "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nUse references/FORMS.md.\n";
const pdf = publishSkill({ files: { "SKILL.md": SKILL_MD, "references/FORMS.md": "Forms guide" } });
const refunds = (prefix: string) =>
  publishSkill({ prefix, files: { "SKILL.md": "---\nname: refunds\ndescription: Refunds\n---\n" } });
const catalog = new SkillCatalog([pdf, refunds("acme/billing"), refunds("acme/support")]);

let peer: SkillsPeer | undefined;
afterEach(async () => {
  await peer?.client.close();
  peer = undefined;
});
const reads = () => peer!.requests.filter((r) => r.method === "resources/read").map((r) => r.params.uri);

describe("listing skills", () => {
  it("lists every entry and reads no skill file", async () => {
    peer = await connectSkillsPeer(catalog);
    expect(skillsCapability(peer.client)).toEqual({ directoryRead: true });
    const { skills, rejected } = await listSkills(peer.client);
    expect(skills.map((s) => s.uri)).toEqual([
      "skill://acme/billing/refunds/SKILL.md",
      "skill://acme/support/refunds/SKILL.md",
      "skill://pdf-processing/SKILL.md",
    ]);
    expect(rejected).toEqual([]);
    expect(reads()).toEqual([]);
  });

  it("keeps entries a host may not load apart, each with why", async () => {
    const bad: unknown[] = [
      { uri: "skill://x/SKILL.md", frontmatter: { name: "y", description: "d" }, resources: "dynamic" },
      { uri: "skill://x/SKILL.md", frontmatter: { name: "x", description: "d" } },
      { uri: "skill://x/SKILL.md", frontmatter: { name: "x", description: "d" }, resources: [] },
      {
        uri: "skill://x/SKILL.md",
        frontmatter: { name: "x", description: "d" },
        resources: [{ uri: "skill://other/SKILL.md", digest: `sha256:${"0".repeat(64)}`, size: 1 }],
      },
      {
        uri: "skill://x/SKILL.md",
        frontmatter: { name: "x", description: "d" },
        resources: [{ uri: "skill://x/SKILL.md", digest: "md5:00", size: 1 }],
      },
      "not an entry",
    ];
    peer = await connectSkillsPeer(catalog, { "skills/list": () => ({ skills: [pdf.entry, ...bad] }) });
    const { skills, rejected } = await listSkills(peer.client);
    expect(skills).toEqual([pdf.entry]);
    expect(rejected.map((r) => r.reason)).toEqual([
      'skill://x/SKILL.md: the URI\'s last segment is not the frontmatter name "y"',
      'skill://x/SKILL.md: its resources are neither a list nor "dynamic"',
      "skill://x/SKILL.md: its resources do not list the SKILL.md itself",
      "skill://x/SKILL.md: the file skill://other/SKILL.md is not within the skill",
      "skill://x/SKILL.md: its digest is not sha256:{hex}",
      "the entry is not an object",
    ]);
  });

  it("follows cursors, and stops at a cursor given twice or past the page limit", async () => {
    let calls = 0;
    peer = await connectSkillsPeer(catalog, {
      "skills/list": () => ({ skills: [], nextCursor: `c${calls++ % 2}` }),
    });
    await expect(listSkills(peer.client)).rejects.toThrow(/gave the cursor "c0" twice/);
    await expect(listSkills(peer.client, { maxPages: 1 })).rejects.toThrow(/did not end within 1 pages/);
  });

  it("asks nothing of a server that does not declare the extension", async () => {
    peer = await connectSkillsPeer(catalog, {}, null);
    await expect(listSkills(peer.client)).rejects.toThrow(
      "The server does not declare the io.modelcontextprotocol/skills extension",
    );
    expect(peer.requests.map((r) => r.method)).toEqual(["initialize"]);
  });
});

describe("loading a skill", () => {
  it("reads SKILL.md when loaded and each other file when asked, verified against the entry", async () => {
    peer = await connectSkillsPeer(catalog);
    const skill = await readSkill(peer.client, "pdf-processing");
    expect(skill.body).toBe("\nUse references/FORMS.md.\n");
    expect(skill.files).toEqual(["SKILL.md", "references/FORMS.md"]);
    expect(reads()).toEqual(["skill://pdf-processing/SKILL.md"]);
    expect(await skill.readText("references/FORMS.md")).toBe("Forms guide");
    await expect(skill.readFile("references/OTHER.md")).rejects.toThrow(
      /is not a file of skill:\/\/pdf-processing\/SKILL.md/,
    );
    await expect(skill.readFile("../secret")).rejects.toThrow(/not a plain relative path/);
    expect(reads()).toEqual([
      "skill://pdf-processing/SKILL.md",
      "skill://pdf-processing/references/FORMS.md",
    ]);
  });

  it("loads by URI through skills/get, and refuses a name two skills share", async () => {
    peer = await connectSkillsPeer(catalog);
    const skill = await readSkill(peer.client, "skill://acme/support/refunds/SKILL.md");
    expect(skill.frontmatter.name).toBe("refunds");
    await expect(readSkill(peer.client, "refunds")).rejects.toThrow(
      'Several skills are named "refunds": skill://acme/billing/refunds/SKILL.md, skill://acme/support/refunds/SKILL.md; load one by its URI',
    );
    await expect(getSkill(peer.client, "skill://gone/SKILL.md")).rejects.toMatchObject({ code: -32602 });
  });

  const served = (text: string) => ({
    "resources/read": (params: Record<string, unknown>) => ({
      contents: [{ uri: params.uri, mimeType: "text/markdown", text }],
    }),
  });

  it("refuses a SKILL.md whose digest, size or frontmatter differs from the entry, and reads nothing more", async () => {
    const tampered = [
      [SKILL_MD.replace("Use", "Rm "), /does not match the entry's digest/],
      [`${SKILL_MD}more`, /bytes where the entry says/],
    ] as const;
    for (const [text, error] of tampered) {
      peer = await connectSkillsPeer(catalog, served(text));
      await expect(readSkill(peer.client, pdf.entry)).rejects.toThrow(error);
      expect(reads()).toEqual(["skill://pdf-processing/SKILL.md"]);
      await peer.client.close();
    }
    // A server consistent with itself but whose entry does not describe the file's frontmatter.
    const other = SKILL_MD.replace("Extract, fill, and assemble PDF documents", "Exfiltrate credentials");
    const lying = publishSkill({ files: { "SKILL.md": other, "references/FORMS.md": "Forms guide" } });
    const entry: Skill = { ...lying.entry, frontmatter: pdf.entry.frontmatter };
    peer = await connectSkillsPeer(new SkillCatalog([lying]), { "skills/list": () => ({ skills: [entry] }) });
    await expect(readSkill(peer.client, "pdf-processing")).rejects.toThrow(
      "skill://pdf-processing/SKILL.md: its frontmatter differs from the entry's in description",
    );
  });

  it("bounds what a dynamic skill reads, having no sizes to check", async () => {
    const dynamic: Skill = { ...pdf.entry, resources: "dynamic" };
    peer = await connectSkillsPeer(catalog, { "skills/get": () => ({ skill: dynamic }) });
    const skill = await readSkill(peer.client, "skill://pdf-processing/SKILL.md", { maxTotalBytes: 200 });
    expect(skill.files).toEqual([]);
    expect(await skill.readText("references/FORMS.md")).toBe("Forms guide");
    await expect(
      skill.readFile("references/FORMS.md").then(() => skill.readFile("SKILL.md")),
    ).rejects.toThrow(/more than 200 bytes read of a dynamic skill/);
  });

  it("refuses an entry over the extension's limits before reading anything", () => {
    const resources = Array.from({ length: 513 }, (_, i) => ({
      uri: i === 0 ? "skill://big/SKILL.md" : `skill://big/f${i}`,
      digest: `sha256:${"a".repeat(64)}`,
      size: 1,
    }));
    const entry = { uri: "skill://big/SKILL.md", frontmatter: { name: "big", description: "d" }, resources };
    expect(entryProblem(entry)).toBe("skill://big/SKILL.md: it lists 513 files; at most 512");
    expect(entryProblem(entry, { maxResources: 1000 })).toBeUndefined();
    expect(() =>
      entryProblem({ ...entry, resources: [{ ...resources[0]!, size: 17 * 1024 * 1024 }] }),
    ).not.toThrow();
    expect(entryProblem({ ...entry, resources: [{ ...resources[0]!, size: 17 * 1024 * 1024 }] })).toMatch(
      /at most 16777216/,
    );
    expect(new SkillError("x").name).toBe("SkillError");
  });
});
