import { DIGEST } from "./digest.js";
import { nameOf, rootOf } from "./names.js";
import { SKILL_LIMITS, type Skill, type SkillResource } from "./types.js";

/** Bounds on what a client accepts of a skill entry. */
export interface EntryLimits {
  /** Files per skill. Default 512, the extension's limit. */
  maxResources?: number;
  /** Bytes per skill, summed over its files' sizes. Default 16 MiB, the extension's limit. */
  maxTotalBytes?: number;
  /** The longest URI accepted. Default 2048 characters. */
  maxUriLength?: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Why a skill entry a server sent is not one a host may load, or `undefined` if it is: the
 * required fields, a `uri` ending in `/SKILL.md` whose last segment is the frontmatter's `name`,
 * and a complete `resources` list (the `SKILL.md` once, each file within the skill, each digest
 * and size well formed) within the limits.
 */
export function entryProblem(entry: unknown, limits: EntryLimits = {}): string | undefined {
  const maxResources = limits.maxResources ?? SKILL_LIMITS.maxResources;
  const maxTotalBytes = limits.maxTotalBytes ?? SKILL_LIMITS.maxTotalBytes;
  const maxUriLength = limits.maxUriLength ?? 2048;
  if (!isObject(entry)) return "the entry is not an object";
  const { uri, frontmatter, resources } = entry;
  if (typeof uri !== "string" || uri.length > maxUriLength)
    return "its uri is not a string of at most 2048 characters";
  const root = rootOf(uri);
  if (root === undefined) return `its uri ${uri} does not name a SKILL.md`;
  if (!isObject(frontmatter)) return `${uri}: its frontmatter is not an object`;
  if (typeof frontmatter.name !== "string" || typeof frontmatter.description !== "string")
    return `${uri}: its frontmatter lacks a string name or description`;
  if (nameOf(uri) !== frontmatter.name)
    return `${uri}: the URI's last segment is not the frontmatter name "${frontmatter.name}"`;
  if (resources === "dynamic") return undefined;
  if (!Array.isArray(resources)) return `${uri}: its resources are neither a list nor "dynamic"`;
  if (resources.length > maxResources)
    return `${uri}: it lists ${resources.length} files; at most ${maxResources}`;
  const seen = new Set<string>();
  let total = 0;
  for (const resource of resources as unknown[]) {
    if (!isObject(resource) || typeof resource.uri !== "string") return `${uri}: a resource has no uri`;
    const file = resource as unknown as SkillResource;
    if (file.uri.length > maxUriLength || !file.uri.startsWith(`${root}/`) || /\/\.\.?(\/|$)/.test(file.uri))
      return `${uri}: the file ${file.uri} is not within the skill`;
    if (seen.has(file.uri)) return `${uri}: the file ${file.uri} is listed twice`;
    seen.add(file.uri);
    if (typeof file.digest !== "string" || !DIGEST.test(file.digest))
      return `${file.uri}: its digest is not sha256:{hex}`;
    if (!Number.isSafeInteger(file.size) || file.size < 0) return `${file.uri}: its size is not a byte count`;
    total += file.size;
  }
  if (!seen.has(uri)) return `${uri}: its resources do not list the SKILL.md itself`;
  if (total > maxTotalBytes) return `${uri}: its files hold ${total} bytes; at most ${maxTotalBytes}`;
  return undefined;
}

/** The entry, typed, if it is one a host may load. */
export function isLoadableEntry(entry: unknown, limits?: EntryLimits): entry is Skill {
  return entryProblem(entry, limits) === undefined;
}
