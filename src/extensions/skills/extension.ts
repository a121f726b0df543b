import type { ClientExtension } from "../../client/features/extension.js";
import type { ServerExtension } from "../../server/dispatch/extension.js";
import type { RequestContext } from "../../server/sessions/context.js";
import { type PublishedSkill, SkillCatalog } from "./catalog.js";
import { skillsMethods } from "./server.js";
import { SKILLS_EXTENSION, SKILLS_GET, SKILLS_LIST } from "./types.js";

/** How a server serves its skills. */
export interface SkillsOptions {
  /** Skills per `skills/list` page, and children per directory page. Default 100. */
  pageSize?: number;
  /** Whether to answer `resources/directory/read` (and declare `directoryRead`). Default true. */
  directoryRead?: boolean;
  /**
   * The caching hints of `skills/list` and `skills/get` results (2026-07-28). Default
   * `{ ttlMs: 0, cacheScope: "private" }`.
   */
  cache?: { ttlMs?: number; cacheScope?: "public" | "private" };
}

/**
 * The Skills extension (`io.modelcontextprotocol/skills`, SEP-2640) for `McpServer`: declares it
 * (with `directoryRead`) and answers `skills/list`, `skills/get` and `resources/directory/read`
 * from the catalog. The skills' files are resources: register them with `registerSkillResources`
 * on the same server, which also declares the `resources` capability the extension requires.
 * The server alone declares the extension: clients call its methods without declaring it.
 *
 * @example
 * const catalog = new SkillCatalog(await skillsFromDirectory("./skills"));
 * const server = new McpServer({ name: "docs", version: "1.0.0" }, { extensions: [skills(catalog)] });
 * registerSkillResources(server, catalog);
 */
export function skills(
  catalog: SkillCatalog | Iterable<PublishedSkill>,
  options: SkillsOptions = {},
): ServerExtension {
  const published = catalog instanceof SkillCatalog ? catalog : new SkillCatalog(catalog);
  const directoryRead = options.directoryRead ?? true;
  const cache = { ttlMs: 0, cacheScope: "private" as const, ...options.cache };
  const handlers = skillsMethods(published, { pageSize: options.pageSize, directoryRead });
  // Results of skills/list and skills/get are cacheable, as resources/list and resources/read are.
  const cacheable = new Set([SKILLS_LIST, SKILLS_GET]);
  return {
    id: SKILLS_EXTENSION,
    settings: directoryRead ? { directoryRead: true } : {},
    requiresClientDeclaration: false,
    methods: Object.entries(handlers).map(([method, handle]) => ({
      method,
      handler: (params: Record<string, unknown>, ctx: RequestContext) => {
        const result = handle(params);
        const stateless = ctx.request.requestMeta !== undefined;
        return stateless && cacheable.has(method) ? { ...result, ...cache } : result;
      },
    })),
  };
}

/**
 * The client side's declaration of the Skills extension, for `McpClient.connect({ extensions })`.
 * The extension asks nothing of clients; a server that wants to know they speak it can see it.
 */
export function skillsClient(): ClientExtension {
  return { id: SKILLS_EXTENSION };
}
