import type { McpClient } from "../../client/client.js";
import type { RequestOptions } from "../../protocol/engine/peer.js";
import type { ResourceContents } from "../../protocol/types/content.js";
import { digestOf } from "./digest.js";
import { type EntryLimits, entryProblem } from "./entry.js";
import { parseSkillMd, sameJson } from "./frontmatter.js";
import { checkRelativePath, rootOf } from "./names.js";
import {
  SKILL_LIMITS,
  SKILL_MD,
  SKILLS_EXTENSION,
  SKILLS_GET,
  SKILLS_LIST,
  type Skill,
  SkillError,
  type SkillFrontmatter,
} from "./types.js";

/** Bounds and request options of the skills functions. */
export interface SkillsClientOptions extends EntryLimits, RequestOptions {
  /** The most `skills/list` pages read. Default 100. */
  maxPages?: number;
  /** The most entries kept from a listing. Default 10,000. */
  maxSkills?: number;
}

/** What `listSkills` found: the entries a host may load, and the ones it may not, with why. */
export interface SkillListing {
  skills: Skill[];
  rejected: { entry: unknown; reason: string }[];
}

/** The server's skills capability entry, if it declares the extension. */
export function skillsCapability(client: McpClient): { directoryRead?: boolean } | undefined {
  return client.serverExtension(SKILLS_EXTENSION);
}

function requireSkills(client: McpClient): void {
  if (!skillsCapability(client))
    throw new SkillError(`The server does not declare the ${SKILLS_EXTENSION} extension`);
}

/**
 * Lists the server's skills (every page of `skills/list`, bounded), checking each entry; reads
 * no skill file. Entries a host may not load are returned apart in `rejected`. An empty listing
 * does not prove the server has no skills: `readSkill` loads one by URI all the same.
 */
export async function listSkills(
  client: McpClient,
  options: SkillsClientOptions = {},
): Promise<SkillListing> {
  requireSkills(client);
  const maxPages = options.maxPages ?? 100;
  const maxSkills = options.maxSkills ?? 10_000;
  const listing: SkillListing = { skills: [], rejected: [] };
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; pages < maxPages; pages++) {
    const result = await client.request<{ skills?: unknown; nextCursor?: unknown }>(
      SKILLS_LIST,
      cursor === undefined ? {} : { cursor },
      options,
    );
    if (!Array.isArray(result.skills)) throw new SkillError(`${SKILLS_LIST} answered without a skills list`);
    for (const entry of result.skills as unknown[]) {
      if (listing.skills.length + listing.rejected.length >= maxSkills)
        throw new SkillError(`${SKILLS_LIST} listed more than ${maxSkills} skills`);
      const reason = entryProblem(entry, options);
      if (reason === undefined) listing.skills.push(entry as Skill);
      else listing.rejected.push({ entry, reason });
    }
    const next = result.nextCursor;
    if (typeof next !== "string" || next === "") return listing;
    if (cursors.has(next))
      throw new SkillError(`${SKILLS_LIST} gave the cursor ${JSON.stringify(next)} twice`);
    cursors.add(next);
    cursor = next;
  }
  throw new SkillError(`${SKILLS_LIST} did not end within ${maxPages} pages`);
}

/** The current entry of the skill whose `SKILL.md` has this URI (`skills/get`), checked. */
export async function getSkill(
  client: McpClient,
  uri: string,
  options: SkillsClientOptions = {},
): Promise<Skill> {
  requireSkills(client);
  const result = await client.request<{ skill?: unknown }>(SKILLS_GET, { uri }, options);
  const reason = entryProblem(result.skill, options);
  if (reason !== undefined) throw new SkillError(`${SKILLS_GET} ${uri}: ${reason}`);
  const skill = result.skill as Skill;
  if (skill.uri !== uri) throw new SkillError(`${SKILLS_GET} ${uri} answered with the entry of ${skill.uri}`);
  return skill;
}

/**
 * Loads a skill: given its entry (from `listSkills`), the URI of its `SKILL.md` (confirmed with
 * `skills/get`) or its name (found in the listing; a name two skills share is an error naming
 * both). Reads `SKILL.md` and verifies it against the entry: its size and digest, and its
 * frontmatter field by field. Its other files are read when asked for, by `LoadedSkill.readFile`.
 * Throws a `SkillError` on any mismatch: the content is not used.
 */
export async function readSkill(
  client: McpClient,
  skill: Skill | string,
  options: SkillsClientOptions = {},
): Promise<LoadedSkill> {
  const entry = typeof skill === "string" ? await resolve(client, skill, options) : checked(skill, options);
  const loaded = new LoadedSkill(client, entry, options);
  const text = new TextDecoder().decode(await loaded.readFile(SKILL_MD));
  const { frontmatter, body } = parseSkillMd(text, entry.uri);
  const fields = new Set([...Object.keys(frontmatter), ...Object.keys(entry.frontmatter)]);
  const differing = [...fields].filter((field) => !sameJson(frontmatter[field], entry.frontmatter[field]));
  if (differing.length > 0)
    throw new SkillError(`${entry.uri}: its frontmatter differs from the entry's in ${differing.join(", ")}`);
  loaded.markdown = text;
  loaded.body = body;
  return loaded;
}

function checked(skill: Skill, options: EntryLimits): Skill {
  const reason = entryProblem(skill, options);
  if (reason !== undefined) throw new SkillError(reason);
  return skill;
}

async function resolve(client: McpClient, nameOrUri: string, options: SkillsClientOptions): Promise<Skill> {
  if (nameOrUri.includes("://")) return getSkill(client, nameOrUri, options);
  const { skills } = await listSkills(client, options);
  const named = skills.filter((skill) => skill.frontmatter.name === nameOrUri);
  if (named.length === 0) throw new SkillError(`The server lists no skill named "${nameOrUri}"`);
  if (named.length > 1)
    throw new SkillError(
      `Several skills are named "${nameOrUri}": ${named.map((s) => s.uri).join(", ")}; load one by its URI`,
    );
  return named[0]!;
}

/**
 * A loaded skill: the entry it was loaded from (which it holds while it is in use), its
 * `SKILL.md`, and its files, each read from the same server only when asked for and verified
 * against the held entry. A file the entry does not list is not read.
 */
export class LoadedSkill {
  /** The whole `SKILL.md`. */
  markdown = "";
  /** `SKILL.md` after its frontmatter. */
  body = "";
  /** Bytes read so far: a `"dynamic"` skill is bounded by this, having no sizes to check. */
  private retrieved = 0;
  private readonly root: string;

  /** @internal */
  constructor(
    private readonly client: McpClient,
    readonly entry: Skill,
    private readonly options: SkillsClientOptions,
  ) {
    this.root = rootOf(entry.uri)!;
  }

  /** The skill's URI: that of its `SKILL.md`. */
  get uri(): string {
    return this.entry.uri;
  }

  get frontmatter(): SkillFrontmatter {
    return this.entry.frontmatter;
  }

  /** The paths of the skill's files relative to its root, as the entry lists them; none if it is `"dynamic"`. */
  get files(): string[] {
    if (this.entry.resources === "dynamic") return [];
    return this.entry.resources.map((resource) => resource.uri.slice(this.root.length + 1));
  }

  /**
   * Reads a file of the skill by its path relative to the skill's root (`references/FORMS.md`),
   * verified against the held entry's size and digest; throws a `SkillError` if it is unlisted
   * or does not match.
   */
  async readFile(path: string): Promise<Uint8Array> {
    const uri = `${this.root}/${checkRelativePath(path, this.uri)}`;
    const listed =
      this.entry.resources === "dynamic" ? undefined : this.entry.resources.find((r) => r.uri === uri);
    if (this.entry.resources !== "dynamic" && !listed)
      throw new SkillError(`${uri} is not a file of ${this.uri} as its entry lists them`);
    const result = await this.client.readResource(uri, this.options);
    const contents = (result.contents ?? []) as ResourceContents[];
    const content = contents.find((c) => c.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
    if (!content) throw new SkillError(`${uri}: the server's answer holds no contents for it`);
    const bytes = bytesOf(content, uri);
    const maxTotal = this.options.maxTotalBytes ?? SKILL_LIMITS.maxTotalBytes;
    if (listed) {
      if (bytes.byteLength !== listed.size)
        throw new SkillError(`${uri}: ${bytes.byteLength} bytes where the entry says ${listed.size}`);
      if (digestOf(bytes) !== listed.digest)
        throw new SkillError(`${uri}: its content does not match the entry's digest`);
    } else {
      this.retrieved += bytes.byteLength;
      if (this.retrieved > maxTotal)
        throw new SkillError(`${this.uri}: more than ${maxTotal} bytes read of a dynamic skill`);
    }
    return bytes;
  }

  /** Reads a file as UTF-8 text, verified as `readFile` does. */
  async readText(path: string): Promise<string> {
    return new TextDecoder().decode(await this.readFile(path));
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function bytesOf(content: ResourceContents, uri: string): Uint8Array {
  if ("text" in content && typeof content.text === "string") return new TextEncoder().encode(content.text);
  if ("blob" in content && typeof content.blob === "string" && BASE64.test(content.blob))
    return Buffer.from(content.blob, "base64");
  throw new SkillError(`${uri}: its contents are neither text nor a base64 blob`);
}
