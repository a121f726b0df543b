/** The extension's identifier, the key of its entry in `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** The methods the extension adds. */
export const SKILLS_LIST = "skills/list";
export const SKILLS_GET = "skills/get";
export const DIRECTORY_READ = "resources/directory/read";

/** The MIME type of a directory resource. */
export const DIRECTORY_MIME_TYPE = "inode/directory";
/** The MIME type of a `SKILL.md`. */
export const SKILL_MD_MIME_TYPE = "text/markdown";
/** The name of the file every skill has at its root. */
export const SKILL_MD = "SKILL.md";

/** The per-skill limits every host accepts: entries in `resources`, and the sum of their sizes. */
export const SKILL_LIMITS = { maxResources: 512, maxTotalBytes: 16 * 1024 * 1024 } as const;

/** The skill's `SKILL.md` frontmatter as JSON: `name` and `description`, and whatever else the author wrote. */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [field: string]: unknown;
}

/** One file of a skill: its URI, and the SHA-256 digest (`sha256:{hex}`) and length of its bytes. */
export interface SkillResource {
  uri: string;
  digest: string;
  size: number;
}

/**
 * The entry of one skill, as `skills/list` and `skills/get` return it: the URI of its `SKILL.md`,
 * its frontmatter, and every one of its files, or `"dynamic"` when its content is generated.
 */
export interface Skill {
  uri: string;
  frontmatter: SkillFrontmatter;
  resources: SkillResource[] | "dynamic";
}

/** A skill that is not what the extension allows, or content that does not match its entry. */
export class SkillError extends Error {
  override name = "SkillError";
}
