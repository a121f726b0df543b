import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { McpServer } from "../../server/server.js";
import type { DirectoryChild, PublishedSkill, SkillCatalog, SkillFile } from "./catalog.js";
import { asText } from "./mime.js";
import { DIRECTORY_READ, SKILL_MD, SKILLS_GET, SKILLS_LIST, type Skill } from "./types.js";

/** The capability entry a skills server declares: `directoryRead` when it answers directory reads. */
export interface SkillsCapability {
  directoryRead?: boolean;
}

/** A request handler of one of the extension's methods: params in, result out. */
export type SkillsMethod = (params: Record<string, unknown>) => Record<string, unknown>;

/** Registers every file of every skill as a resource: `SKILL.md` named and described by its frontmatter. */
export function registerSkillResources(server: McpServer, catalog: SkillCatalog): void {
  for (const skill of catalog.skills) {
    for (const file of skill.files) {
      const isSkillMd = file.path === SKILL_MD;
      const meta = {
        name: isSkillMd ? skill.frontmatter.name : file.path,
        mimeType: file.mimeType,
        size: file.bytes.byteLength,
        ...(isSkillMd ? { description: skill.frontmatter.description } : {}),
      };
      server.resource(file.uri, meta, () => contentsOf(file));
    }
  }
}

/** A file's contents: the exact bytes as text when they are UTF-8, else as a base64 blob. */
function contentsOf(file: SkillFile) {
  const text = asText(file.bytes);
  if (text !== undefined) return { uri: file.uri, mimeType: file.mimeType, text };
  return { uri: file.uri, mimeType: file.mimeType, blob: Buffer.from(file.bytes).toString("base64") };
}

/**
 * The handlers of `skills/list`, `skills/get` and (with `directoryRead`) `resources/directory/read`
 * over a catalog. Lists are paged by `pageSize`; an unknown skill, a URI that is not a directory
 * and a cursor this server did not give are -32602.
 */
export function skillsMethods(
  catalog: SkillCatalog,
  { pageSize = 100, directoryRead = true }: { pageSize?: number; directoryRead?: boolean } = {},
): Record<string, SkillsMethod> {
  const methods: Record<string, SkillsMethod> = {
    [SKILLS_LIST]: (params) => {
      const { items, nextCursor } = page(catalog.skills, params.cursor, pageSize, SKILLS_LIST);
      return withCursor({ skills: items.map((skill: PublishedSkill): Skill => skill.entry) }, nextCursor);
    },
    [SKILLS_GET]: (params) => {
      const uri = stringParam(params, "uri", SKILLS_GET);
      const skill = catalog.get(uri);
      if (!skill) throw new McpError(ErrorCode.InvalidParams, `No skill is served at ${uri}`, { uri });
      return { skill: skill.entry };
    },
  };
  if (directoryRead) {
    methods[DIRECTORY_READ] = (params) => {
      const uri = stringParam(params, "uri", DIRECTORY_READ);
      const children = catalog.directory(uri);
      if (!children)
        throw new McpError(ErrorCode.InvalidParams, `${uri} is not a directory resource`, { uri });
      const { items, nextCursor } = page(children, params.cursor, pageSize, DIRECTORY_READ);
      return withCursor({ resources: items.map((child: DirectoryChild) => ({ ...child })) }, nextCursor);
    };
  }
  return methods;
}

function stringParam(params: Record<string, unknown>, name: string, method: string): string {
  const value = params[name];
  if (typeof value !== "string")
    throw new McpError(ErrorCode.InvalidParams, `${method} needs a string "${name}"`);
  return value;
}

function withCursor<T extends object>(
  result: T,
  nextCursor: string | undefined,
): T & { nextCursor?: string } {
  return nextCursor === undefined ? result : { ...result, nextCursor };
}

/** One page of a fixed list; the cursor is the offset of the next item, as an opaque string. */
function page<T>(
  all: readonly T[],
  cursor: unknown,
  size: number,
  method: string,
): { items: T[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const offset =
      typeof cursor === "string" && /^o[0-9]{1,9}$/.test(cursor) ? Number(cursor.slice(1)) : Number.NaN;
    if (!(offset > 0 && offset < all.length))
      throw new McpError(ErrorCode.InvalidParams, `${method}: the cursor is not one this server gave`);
    start = offset;
  }
  const end = start + size;
  return { items: all.slice(start, end), nextCursor: end < all.length ? `o${end}` : undefined };
}
