import { lstat, readdir, readFile, realpath, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { type PublishedSkill, publishSkill, type SkillLimits } from "./catalog.js";
import { SKILL_LIMITS, SKILL_MD, SkillError } from "./types.js";

/** How a directory of skill folders is read. */
export interface SkillDirectoryOptions extends SkillLimits {
  /** An organizational prefix for every skill found (`acme/billing`); none by default. */
  prefix?: string;
  /** The most skill folders read. Default 1000. */
  maxSkills?: number;
  /** The deepest a file may lie below its skill's root, in folders. Default 16. */
  maxDepth?: number;
}

/**
 * Reads every skill folder of `dir` (each a folder with a `SKILL.md` at its root; other entries
 * are ignored) and publishes it: every file below the folder becomes a resource of the skill.
 * A symbolic link is followed only when its target lies inside the same skill folder; one that
 * points out of it is an error, as is a file past the limits. Folders and files whose names
 * begin with `.` are left out. Errors are `SkillError`s naming the file.
 */
export async function skillsFromDirectory(
  dir: string,
  options: SkillDirectoryOptions = {},
): Promise<PublishedSkill[]> {
  const maxSkills = options.maxSkills ?? 1000;
  const base = await realpath(dir).catch((error: NodeJS.ErrnoException) => {
    throw new SkillError(
      `Skills directory ${dir}: ${error.code === "ENOENT" ? "does not exist" : error.message}`,
    );
  });
  const skills: PublishedSkill[] = [];
  for (const entry of (await readdir(base, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  )) {
    if (entry.name.startsWith(".") || !entry.isDirectory()) continue;
    const folder = join(base, entry.name);
    const hasSkillMd = await lstat(join(folder, SKILL_MD)).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!hasSkillMd) continue;
    if (skills.length >= maxSkills)
      throw new SkillError(`Skills directory ${dir}: more than ${maxSkills} skills`);
    const files = await readSkillFolder(folder, options);
    const skill = publishSkill({ prefix: options.prefix, files }, options);
    if (skill.frontmatter.name !== entry.name)
      throw new SkillError(
        `${join(folder, SKILL_MD)}: the name "${skill.frontmatter.name}" must equal its folder's name "${entry.name}"`,
      );
    skills.push(skill);
  }
  return skills;
}

/** Every file below a skill folder, by path relative to it, within the limits. */
async function readSkillFolder(
  folder: string,
  options: SkillDirectoryOptions,
): Promise<Record<string, Uint8Array>> {
  const maxResources = options.maxResources ?? SKILL_LIMITS.maxResources;
  const maxTotalBytes = options.maxTotalBytes ?? SKILL_LIMITS.maxTotalBytes;
  const maxDepth = options.maxDepth ?? 16;
  const files: Record<string, Uint8Array> = {};
  let count = 0;
  let total = 0;
  const inside = (path: string) => path === folder || path.startsWith(folder + sep);

  const walk = async (dir: string, depth: number): Promise<void> => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      if (entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      let target = path;
      if (entry.isSymbolicLink()) {
        target = await realpath(path).catch(() => {
          throw new SkillError(`${path}: a symbolic link to nothing`);
        });
        if (!inside(target))
          throw new SkillError(`${path}: a symbolic link out of the skill folder ${folder}`);
      }
      const info = await stat(target);
      if (info.isDirectory()) {
        if (depth >= maxDepth)
          throw new SkillError(`${path}: deeper than ${maxDepth} folders below ${folder}`);
        await walk(path, depth + 1);
        continue;
      }
      if (!info.isFile()) continue;
      if (++count > maxResources) throw new SkillError(`${folder}: more than ${maxResources} files`);
      total += info.size;
      if (total > maxTotalBytes)
        throw new SkillError(`${folder}: its files hold more than ${maxTotalBytes} bytes`);
      files[relative(folder, path).split(sep).join("/")] = await readFile(target);
    }
  };
  await walk(folder, 0);
  return files;
}
