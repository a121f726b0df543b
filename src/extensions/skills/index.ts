export {
  type DirectoryChild,
  type PublishedSkill,
  publishSkill,
  SkillCatalog,
  type SkillDefinition,
  type SkillFile,
  type SkillLimits,
} from "./catalog.js";
export {
  getSkill,
  LoadedSkill,
  listSkills,
  readSkill,
  type SkillListing,
  type SkillsClientOptions,
  skillsCapability,
} from "./client.js";
export { digestOf } from "./digest.js";
export { type SkillDirectoryOptions, skillsFromDirectory } from "./directory.js";
export { type EntryLimits, entryProblem, isLoadableEntry } from "./entry.js";
export { type SkillsOptions, skills, skillsClient } from "./extension.js";
export { type ParsedSkillMd, parseSkillMd } from "./frontmatter.js";
export { isSkillName } from "./names.js";
export { registerSkillResources, type SkillsCapability, type SkillsMethod, skillsMethods } from "./server.js";
export {
  DIRECTORY_MIME_TYPE,
  DIRECTORY_READ,
  SKILL_LIMITS,
  SKILL_MD,
  SKILL_MD_MIME_TYPE,
  SKILLS_EXTENSION,
  SKILLS_GET,
  SKILLS_LIST,
  type Skill,
  SkillError,
  type SkillFrontmatter,
  type SkillResource,
} from "./types.js";
