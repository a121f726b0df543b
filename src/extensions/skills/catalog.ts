import { digestOf } from "./digest.js";
import { checkFrontmatter, parseSkillMd } from "./frontmatter.js";
import { mimeTypeOf } from "./mime.js";
import { checkRelativePath, skillRoot } from "./names.js";
import {
  DIRECTORY_MIME_TYPE,
  SKILL_LIMITS,
  SKILL_MD,
  SKILL_MD_MIME_TYPE,
  type Skill,
  SkillError,
  type SkillFrontmatter,
} from "./types.js";

/** A skill given in memory: its files by path relative to its root, `SKILL.md` among them. */
export interface SkillDefinition {
  /** An organizational prefix of `/`-separated segments (`acme/billing`); none by default. */
  prefix?: string;
  /** Every file of the skill, `SKILL.md` included: text (stored as UTF-8) or bytes. */
  files: Record<string, string | Uint8Array>;
}

/** Per-skill limits checked at publish time; the defaults are the ones every host accepts. */
export interface SkillLimits {
  /** Files per skill, `SKILL.md` included. Default 512. */
  maxResources?: number;
  /** Bytes per skill, summed over its files. Default 16 MiB. */
  maxTotalBytes?: number;
}

/** One published file: its URI, its bytes and how they are described. */
export interface SkillFile {
  uri: string;
  /** The path relative to the skill's root. */
  path: string;
  bytes: Uint8Array;
  mimeType: string;
}

/** A published skill: its entry, its files, and the directories they lie in. */
export interface PublishedSkill {
  /** `skill://<prefix>/<name>`. */
  root: string;
  frontmatter: SkillFrontmatter;
  entry: Skill;
  files: SkillFile[];
}

const encoder = new TextEncoder();

/**
 * Checks a skill and computes its entry: the frontmatter of its `SKILL.md` (which must name the
 * skill by the naming rules), a digest and size per file, within the limits. Throws a
 * `SkillError` that says which skill and what is wrong.
 */
export function publishSkill(definition: SkillDefinition, limits: SkillLimits = {}): PublishedSkill {
  const maxResources = limits.maxResources ?? SKILL_LIMITS.maxResources;
  const maxTotalBytes = limits.maxTotalBytes ?? SKILL_LIMITS.maxTotalBytes;
  const paths = Object.keys(definition.files);
  const where = `Skill${definition.prefix ? ` under "${definition.prefix}"` : ""}`;
  const skillMd = definition.files[SKILL_MD];
  if (skillMd === undefined) throw new SkillError(`${where}: it has no ${SKILL_MD} at its root`);
  if (paths.length > maxResources)
    throw new SkillError(`${where}: it has ${paths.length} files; a skill may have at most ${maxResources}`);
  const skillMdBytes = typeof skillMd === "string" ? encoder.encode(skillMd) : skillMd;
  const skillMdText = typeof skillMd === "string" ? skillMd : new TextDecoder().decode(skillMd);
  const { frontmatter } = parseSkillMd(skillMdText, `${where}: ${SKILL_MD}`);
  const checked = checkFrontmatter(frontmatter, `${where}: ${SKILL_MD}`);
  const root = skillRoot(definition.prefix, checked.name);
  let total = 0;
  const files = paths.sort().map((path): SkillFile => {
    checkRelativePath(path, `${root}: file`);
    const content = definition.files[path]!;
    const bytes =
      path === SKILL_MD ? skillMdBytes : typeof content === "string" ? encoder.encode(content) : content;
    total += bytes.byteLength;
    const mimeType = path === SKILL_MD ? SKILL_MD_MIME_TYPE : mimeTypeOf(path);
    return { uri: `${root}/${path}`, path, bytes, mimeType };
  });
  if (total > maxTotalBytes)
    throw new SkillError(`${root}: its files hold ${total} bytes; a skill may hold at most ${maxTotalBytes}`);
  const entry: Skill = {
    uri: `${root}/${SKILL_MD}`,
    frontmatter: checked,
    resources: files.map((file) => ({
      uri: file.uri,
      digest: digestOf(file.bytes),
      size: file.bytes.byteLength,
    })),
  };
  return { root, frontmatter: checked, entry, files };
}

/** A directory's direct children, as `resources/directory/read` lists them. */
export interface DirectoryChild {
  uri: string;
  name: string;
  mimeType: string;
  size?: number;
}

/**
 * The skills a server serves, by the URI of their `SKILL.md`, with every directory of their file
 * trees. Two skills at one root are refused.
 */
export class SkillCatalog {
  readonly skills: readonly PublishedSkill[];
  private readonly byUri = new Map<string, PublishedSkill>();
  /** Directory URI → its children by URI (a nested skill's files belong to its parent's tree too). */
  private readonly directories = new Map<string, Map<string, DirectoryChild>>();

  constructor(skills: Iterable<PublishedSkill>) {
    this.skills = [...skills].sort((a, b) =>
      a.entry.uri < b.entry.uri ? -1 : a.entry.uri > b.entry.uri ? 1 : 0,
    );
    for (const skill of this.skills) {
      if (this.byUri.has(skill.entry.uri)) throw new SkillError(`Two skills are published at ${skill.root}`);
      this.byUri.set(skill.entry.uri, skill);
    }
    for (const skill of this.skills) this.addTree(skill);
  }

  /** The skill whose `SKILL.md` has this URI. */
  get(uri: string): PublishedSkill | undefined {
    return this.byUri.get(uri);
  }

  /** The children of a directory resource, or `undefined` if `uri` names none. */
  directory(uri: string): DirectoryChild[] | undefined {
    const children = this.directories.get(uri);
    return children && [...children.values()];
  }

  /** Every file of every skill. */
  *files(): Iterable<SkillFile> {
    for (const skill of this.skills) yield* skill.files;
  }

  private addTree(skill: PublishedSkill): void {
    const dir = (uri: string) => {
      const children = this.directories.get(uri) ?? new Map<string, DirectoryChild>();
      this.directories.set(uri, children);
      return children;
    };
    dir(skill.root);
    for (const file of skill.files) {
      const segments = file.path.split("/");
      let parent = skill.root;
      for (const segment of segments.slice(0, -1)) {
        const uri = `${parent}/${segment}`;
        dir(parent).set(uri, { uri, name: segment, mimeType: DIRECTORY_MIME_TYPE });
        dir(uri);
        parent = uri;
      }
      const name = segments.at(-1)!;
      dir(parent).set(file.uri, {
        uri: file.uri,
        name,
        mimeType: file.mimeType,
        size: file.bytes.byteLength,
      });
    }
  }
}
