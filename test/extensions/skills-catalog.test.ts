import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DIRECTORY_READ,
  parseSkillMd,
  publishSkill,
  SKILLS_GET,
  SKILLS_LIST,
  SkillCatalog,
  SkillError,
  skillsFromDirectory,
  skillsMethods,
} from "../../src/extensions/skills/index.js";

const md = (name: string, description = `The ${name} skill`, extra = "") =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n`;
const sha = (text: string | Uint8Array) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

describe("SKILL.md frontmatter", () => {
  it("parses YAML frontmatter verbatim as JSON, with the body after it", () => {
    const parsed = parseSkillMd(
      "\ufeff---\nname: pdf\ndescription: PDFs\nlicense: MIT\nmetadata:\n  version: '2.1'\n  tags: [a, b]\n---\nBody\n",
      "x",
    );
    expect(parsed.frontmatter).toEqual({
      name: "pdf",
      description: "PDFs",
      license: "MIT",
      metadata: { version: "2.1", tags: ["a", "b"] },
    });
    expect(parsed.body).toBe("Body\n");
  });

  it("refuses a SKILL.md without frontmatter, with bad YAML, or one that is not a mapping", () => {
    expect(() => parseSkillMd("# no frontmatter", "a/SKILL.md")).toThrow(/a\/SKILL.md: it does not begin/);
    expect(() => parseSkillMd("---\nname: [unclosed\n---\n", "b")).toThrow(/not valid YAML/);
    expect(() => parseSkillMd("---\n- a list\n---\n", "c")).toThrow(/not a YAML mapping/);
    expect(() => parseSkillMd("---\nname: x\n", "d")).toThrow(/no closing ---/);
    expect(() => parseSkillMd("---\na: &x [1]\nb: [*x, *x]\nname: 1\nname: 2\n---\n", "e")).toThrow(
      SkillError,
    );
  });

  it("checks the name, the description and the reserved metadata keys when a skill is published", () => {
    const publish = (skillMd: string) => publishSkill({ files: { "SKILL.md": skillMd } });
    expect(() => publish(md("Bad_Name"))).toThrow(/naming rules/);
    expect(() => publish(md("a--b"))).toThrow(/naming rules/);
    expect(() => publish(md("-a"))).toThrow(/naming rules/);
    expect(() => publish(md("x".repeat(65)))).toThrow(/naming rules/);
    expect(() => publish("---\nname: ok\n---\n")).toThrow(/no non-empty "description"/);
    expect(() => publish("---\ndescription: d\n---\n")).toThrow(/has no "name"/);
    expect(() => publish(md("ok", "d", "metadata:\n  io.modelcontextprotocol/x: y\n"))).toThrow(/reserved/);
    expect(() => publishSkill({ files: { "README.md": "x" } })).toThrow(/has no SKILL.md/);
  });
});

describe("publishing skills", () => {
  it("gives each file a skill:// URI under the prefix and the skill's name, with its digest and size", () => {
    const skillMd = md("refunds", "Process refunds", "license: Apache-2.0\n");
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff]);
    const skill = publishSkill({
      prefix: "acme/billing",
      files: { "SKILL.md": skillMd, "examples/email.md": "Dear customer", "assets/logo.png": png },
    });
    expect(skill.root).toBe("skill://acme/billing/refunds");
    expect(skill.entry).toEqual({
      uri: "skill://acme/billing/refunds/SKILL.md",
      frontmatter: { name: "refunds", description: "Process refunds", license: "Apache-2.0" },
      resources: [
        {
          uri: "skill://acme/billing/refunds/SKILL.md",
          digest: sha(skillMd),
          size: Buffer.byteLength(skillMd),
        },
        { uri: "skill://acme/billing/refunds/assets/logo.png", digest: sha(png), size: 5 },
        { uri: "skill://acme/billing/refunds/examples/email.md", digest: sha("Dear customer"), size: 13 },
      ],
    });
    expect(skill.files.map((f) => f.mimeType)).toEqual(["text/markdown", "image/png", "text/markdown"]);
  });

  it("refuses paths that leave the skill, bad prefixes, and skills over the limits", () => {
    const skillMd = md("s");
    expect(() => publishSkill({ files: { "SKILL.md": skillMd, "../x": "" } })).toThrow(
      /not a plain relative path/,
    );
    expect(() => publishSkill({ files: { "SKILL.md": skillMd, "a//b": "" } })).toThrow(
      /not a plain relative path/,
    );
    expect(() => publishSkill({ files: { "SKILL.md": skillMd, "a\\b": "" } })).toThrow(
      /not a plain relative path/,
    );
    expect(() => publishSkill({ prefix: "a/../b", files: { "SKILL.md": skillMd } })).toThrow(/segment ".."/);
    expect(() => publishSkill({ prefix: "a b", files: { "SKILL.md": skillMd } })).toThrow(/segment "a b"/);
    const many = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`f${i}.txt`, "x"]));
    expect(() => publishSkill({ files: { "SKILL.md": skillMd, ...many } }, { maxResources: 4 })).toThrow(
      /5 files; a skill may have at most 4/,
    );
    expect(() =>
      publishSkill({ files: { "SKILL.md": skillMd, big: "x".repeat(100) } }, { maxTotalBytes: 100 }),
    ).toThrow(/at most 100/);
  });

  it("refuses two skills at one root", () => {
    const one = publishSkill({ files: { "SKILL.md": md("same") } });
    expect(() => new SkillCatalog([one, one])).toThrow(/Two skills are published at skill:\/\/same/);
  });
});

describe("the skills methods over a catalog", () => {
  const catalog = new SkillCatalog(
    ["alpha", "beta", "gamma"].map((name) =>
      publishSkill({
        files: { "SKILL.md": md(name), "templates/a.md": "A", "templates/regional/eu.md": "EU" },
      }),
    ),
  );
  const methods = skillsMethods(catalog, { pageSize: 2 });

  it("pages skills/list with an opaque cursor and refuses a cursor it did not give", () => {
    const first = methods[SKILLS_LIST]!({});
    expect((first.skills as { uri: string }[]).map((s) => s.uri)).toEqual([
      "skill://alpha/SKILL.md",
      "skill://beta/SKILL.md",
    ]);
    const second = methods[SKILLS_LIST]!({ cursor: first.nextCursor });
    expect((second.skills as { uri: string }[]).map((s) => s.uri)).toEqual(["skill://gamma/SKILL.md"]);
    expect(second.nextCursor).toBeUndefined();
    expect(() => methods[SKILLS_LIST]!({ cursor: "o99" })).toThrow(expect.objectContaining({ code: -32602 }));
    expect(() => methods[SKILLS_LIST]!({ cursor: 5 })).toThrow(expect.objectContaining({ code: -32602 }));
  });

  it("answers skills/get with the listed entry, and -32602 for a URI it does not serve", () => {
    expect(methods[SKILLS_GET]!({ uri: "skill://beta/SKILL.md" })).toEqual({
      skill: catalog.get("skill://beta/SKILL.md")!.entry,
    });
    expect(() => methods[SKILLS_GET]!({ uri: "skill://nope/SKILL.md" })).toThrow(
      expect.objectContaining({ code: -32602, message: "No skill is served at skill://nope/SKILL.md" }),
    );
    expect(() => methods[SKILLS_GET]!({})).toThrow(expect.objectContaining({ code: -32602 }));
  });

  it("lists a directory's direct children, subdirectories as inode/directory, and -32602 for a file", () => {
    const root = methods[DIRECTORY_READ]!({ uri: "skill://alpha" });
    expect(root.resources).toEqual([
      {
        uri: "skill://alpha/SKILL.md",
        name: "SKILL.md",
        mimeType: "text/markdown",
        size: expect.any(Number),
      },
      { uri: "skill://alpha/templates", name: "templates", mimeType: "inode/directory" },
    ]);
    const templates = methods[DIRECTORY_READ]!({ uri: "skill://alpha/templates" });
    expect(templates.resources).toEqual([
      { uri: "skill://alpha/templates/a.md", name: "a.md", mimeType: "text/markdown", size: 1 },
      { uri: "skill://alpha/templates/regional", name: "regional", mimeType: "inode/directory" },
    ]);
    expect(() => methods[DIRECTORY_READ]!({ uri: "skill://alpha/SKILL.md" })).toThrow(
      expect.objectContaining({
        code: -32602,
        message: "skill://alpha/SKILL.md is not a directory resource",
      }),
    );
    expect(skillsMethods(catalog, { directoryRead: false })[DIRECTORY_READ]).toBeUndefined();
  });
});

describe("skills from a directory of skill folders", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "mcpkit-skills-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  };

  it("publishes every folder with a SKILL.md, its files below it, and leaves out dot files and other entries", async () => {
    write("skills/git-workflow/SKILL.md", md("git-workflow"));
    write("skills/git-workflow/references/BRANCHES.md", "main only");
    write("skills/git-workflow/.hidden", "no");
    write("skills/notes/README.md", "not a skill");
    write("skills/loose.md", "not a skill either");
    const skills = await skillsFromDirectory(join(dir, "skills"), { prefix: "team" });
    expect(skills.map((s) => s.entry.uri)).toEqual(["skill://team/git-workflow/SKILL.md"]);
    expect(skills[0]!.files.map((f) => f.path)).toEqual(["SKILL.md", "references/BRANCHES.md"]);
  });

  it("follows a symbolic link inside the skill, and refuses one that points out of it", async () => {
    write("skills/s/SKILL.md", md("s"));
    write("skills/s/real.md", "inside");
    write("secret.txt", "TOP SECRET");
    symlinkSync(join(dir, "skills/s/real.md"), join(dir, "skills/s/alias.md"));
    const [skill] = await skillsFromDirectory(join(dir, "skills"));
    expect(skill!.files.map((f) => f.path)).toEqual(["SKILL.md", "alias.md", "real.md"]);
    symlinkSync(join(dir, "secret.txt"), join(dir, "skills/s/escape.txt"));
    await expect(skillsFromDirectory(join(dir, "skills"))).rejects.toThrow(
      /escape.txt: a symbolic link out of the skill folder/,
    );
  });

  it("refuses a link loop, a name that is not the folder's, a missing directory and files past the limits", async () => {
    write("skills/s/SKILL.md", md("other"));
    await expect(skillsFromDirectory(join(dir, "skills"))).rejects.toThrow(
      /must equal its folder's name "s"/,
    );
    write("skills/s/SKILL.md", md("s"));
    symlinkSync(join(dir, "skills/s"), join(dir, "skills/s/loop"));
    await expect(skillsFromDirectory(join(dir, "skills"), { maxDepth: 3 })).rejects.toThrow(
      /deeper than 3 folders/,
    );
    rmSync(join(dir, "skills/s/loop"));
    write("skills/s/big.txt", "x".repeat(2000));
    await expect(skillsFromDirectory(join(dir, "skills"), { maxTotalBytes: 1000 })).rejects.toThrow(
      /more than 1000 bytes/,
    );
    await expect(skillsFromDirectory(join(dir, "missing"))).rejects.toThrow(/does not exist/);
  });
});
