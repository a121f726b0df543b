import { parse } from "yaml";
import { isSkillName } from "./names.js";
import { SkillError, type SkillFrontmatter } from "./types.js";

/** The largest frontmatter block parsed, in characters: it is metadata, not content. */
const MAX_FRONTMATTER_CHARS = 64 * 1024;
/** The longest `description` the Agent Skills specification allows. */
const MAX_DESCRIPTION = 1024;
/** `metadata` keys under this prefix are reserved for MCP extensions; none is defined yet. */
const RESERVED_METADATA_PREFIX = "io.modelcontextprotocol/";

const BLOCK = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** A `SKILL.md` split into its frontmatter (parsed from YAML) and the markdown after it. */
export interface ParsedSkillMd {
  frontmatter: Record<string, unknown>;
  body: string;
}

/**
 * Parses the YAML frontmatter a `SKILL.md` begins with. Throws a `SkillError` naming `where` when
 * there is none, it is too large, it is not YAML, or it is not a mapping.
 */
export function parseSkillMd(text: string, where: string): ParsedSkillMd {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const head = source.slice(0, MAX_FRONTMATTER_CHARS + 16);
  const match = BLOCK.exec(head);
  if (!match) {
    const reason = source.startsWith("---")
      ? `its frontmatter has no closing --- within ${MAX_FRONTMATTER_CHARS} characters`
      : "it does not begin with a --- delimited YAML frontmatter block";
    throw new SkillError(`${where}: ${reason}`);
  }
  let value: unknown;
  try {
    // Aliases are bounded so a small block cannot expand into a huge value.
    value = parse(match[1]!, { maxAliasCount: 100, uniqueKeys: true, prettyErrors: false });
  } catch (error) {
    throw new SkillError(`${where}: the frontmatter is not valid YAML: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new SkillError(`${where}: the frontmatter is not a YAML mapping`);
  return {
    frontmatter: toJson(value, where) as Record<string, unknown>,
    body: source.slice(match[0].length),
  };
}

/** The frontmatter as plain JSON values: YAML may hold what JSON cannot (non-string keys, NaN). */
function toJson(value: unknown, where: string): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value))
      throw new SkillError(`${where}: the frontmatter holds ${value}, which JSON cannot`);
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => toJson(item, where));
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = toJson(item, where);
    return out;
  }
  throw new SkillError(`${where}: the frontmatter holds a value JSON cannot represent`);
}

/**
 * Checks frontmatter against the Agent Skills rules the extension relies on: a `name` by the
 * naming rules, a non-empty `description`, `metadata` a mapping with no reserved key.
 */
export function checkFrontmatter(frontmatter: Record<string, unknown>, where: string): SkillFrontmatter {
  const { name, description, metadata } = frontmatter;
  if (typeof name !== "string" || name === "")
    throw new SkillError(`${where}: the frontmatter has no "name"`);
  if (!isSkillName(name))
    throw new SkillError(
      `${where}: the name "${name}" breaks the naming rules (1-64 lowercase letters, digits and hyphens; no hyphen first, last or twice in a row)`,
    );
  if (typeof description !== "string" || description.trim() === "")
    throw new SkillError(`${where}: the frontmatter has no non-empty "description"`);
  if (description.length > MAX_DESCRIPTION)
    throw new SkillError(
      `${where}: the description is ${description.length} characters; at most ${MAX_DESCRIPTION}`,
    );
  if (metadata !== undefined) {
    if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata))
      throw new SkillError(`${where}: "metadata" is not a mapping`);
    const reserved = Object.keys(metadata).find((key) => key.startsWith(RESERVED_METADATA_PREFIX));
    if (reserved !== undefined)
      throw new SkillError(
        `${where}: the metadata key "${reserved}" is under the prefix reserved for MCP extensions`,
      );
  }
  return frontmatter as SkillFrontmatter;
}

/** Deep equality of JSON values: the field-by-field comparison of two frontmatters. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => sameJson(item, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]));
}
