import { SKILL_MD, SkillError } from "./types.js";

/** The Agent Skills naming rule: 1-64 lowercase letters, digits and single inner hyphens. */
const NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;
/** A prefix segment: URI path characters that need no escaping (the first is the authority). */
const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** Whether `name` satisfies the Agent Skills naming rules. */
export function isSkillName(name: unknown): name is string {
  return typeof name === "string" && NAME.test(name);
}

/** Checks an organizational prefix (`acme/billing`); returns its segments. */
function prefixSegments(prefix: string | undefined): string[] {
  if (prefix === undefined || prefix === "") return [];
  const segments = prefix.split("/");
  for (const segment of segments) {
    if (!SEGMENT.test(segment) || segment === "." || segment === "..")
      throw new SkillError(
        `Skill prefix "${prefix}": the segment "${segment}" may use only letters, digits and . _ ~ -`,
      );
  }
  return segments;
}

/** `skill://<prefix>/<name>`: the skill's root directory, with no trailing slash. */
export function skillRoot(prefix: string | undefined, name: string): string {
  return `skill://${[...prefixSegments(prefix), name].join("/")}`;
}

/** The root directory of a `SKILL.md` URI, or `undefined` if the URI does not end in `/SKILL.md`. */
export function rootOf(skillMdUri: string): string | undefined {
  const suffix = `/${SKILL_MD}`;
  if (!skillMdUri.endsWith(suffix)) return undefined;
  const root = skillMdUri.slice(0, -suffix.length);
  return root.includes("://") && !root.endsWith("://") ? root : undefined;
}

/** The skill name a `SKILL.md` URI carries: its last path segment before `SKILL.md`. */
export function nameOf(skillMdUri: string): string | undefined {
  const root = rootOf(skillMdUri);
  return root === undefined ? undefined : root.slice(root.lastIndexOf("/") + 1).replace(/^.*:\/\//, "");
}

/** Whether a string holds a C0 control character or DEL. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * A file path relative to a skill's root (`references/FORMS.md`): `/`-separated, no empty, `.`
 * or `..` segment, no backslash or control character. Returns it, or throws a `SkillError`.
 */
export function checkRelativePath(path: string, what: string): string {
  const segments = path.split("/");
  const bad = segments.find((s) => s === "" || s === "." || s === ".." || s.includes("\\") || hasControl(s));
  if (bad !== undefined) throw new SkillError(`${what}: "${path}" is not a plain relative path`);
  return path;
}
