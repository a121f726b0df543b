import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { adaptDescription } from "../../protocol/revisions/adapt.js";
import type { Revision } from "../../protocol/revisions/revision.js";
import type { ResourceContents } from "../../protocol/types/content.js";
import type {
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from "../../protocol/types/resources.js";
import { UriTemplate, type UriTemplateMatch } from "../../util/uri-template.js";
import { type Scopes, scopesOption, type Visible } from "../auth/scopes.js";
import type { RequestContext } from "../sessions/context.js";
import { type Completer, complete } from "./completion.js";
import { Paginator, pageOf, sortByKey } from "./paginate.js";

/** How a resource describes itself (its `uri` is given separately). */
export type ResourceMeta = Omit<Resource, "uri">;

/** How a template describes itself (its `uriTemplate` is given separately). */
export type ResourceTemplateMeta = Omit<ResourceTemplate, "uriTemplate">;

/** What a read handler may return: text, bytes, one or more contents, or a full result. */
export type ResourceReturn = string | Uint8Array | ResourceContents | ResourceContents[] | ReadResourceResult;

/** Reads a fixed resource. */
export type ReadResource = (uri: string, ctx: RequestContext) => ResourceReturn | Promise<ResourceReturn>;

/** Reads a resource of a template, given the variables matched from its URI (decoded). */
export type ReadTemplateResource<Variables = UriTemplateMatch> = (
  uri: string,
  variables: Variables,
  ctx: RequestContext,
) => ResourceReturn | Promise<ResourceReturn>;

/** Caching hints for a resource's reads (2026-07-28), overriding the server's. */
interface ResourceCache {
  cache?: { ttlMs?: number; cacheScope?: "public" | "private" };
}

/** How a resource is served beside what it says of itself. */
export interface ResourceOptions extends ResourceCache {
  /**
   * The scopes a caller's access token must grant to read or subscribe to it (and, with
   * `hideUnauthorized`, to see it listed); see `ToolConfig.scopes`.
   */
  scopes?: string[];
}

export interface ResourceTemplateOptions<Name extends string = string> extends ResourceOptions {
  /** The concrete resources of this template, added to `resources/list`. */
  list?: (ctx: RequestContext) => Resource[] | Promise<Resource[]>;
  /** Completers for the template's variables, by variable name. */
  complete?: Partial<Record<Name, Completer>>;
}

interface FixedResource {
  description: Resource;
  read: ReadResource;
  cache: ResourceCache["cache"];
  scopes: Scopes;
}

interface TemplateEntry {
  template: UriTemplate;
  description: ResourceTemplate;
  read: ReadTemplateResource;
  options: ResourceTemplateOptions;
  scopes: Scopes;
}

/** The longest URI matched against resource templates by default. */
const DEFAULT_MAX_URI_LENGTH = 8192;

/** The resources and resource templates of one server. */
export class ResourceRegistry {
  private readonly fixed = new Map<string, FixedResource>();
  private readonly templates = new Map<string, TemplateEntry>();
  private readonly templatePages: Paginator<TemplateEntry>;

  constructor(
    private readonly pageSize: number,
    private readonly onChange: () => void,
    /** URIs longer than this are not matched against templates: matching costs time by length. */
    private readonly maxUriLength = DEFAULT_MAX_URI_LENGTH,
  ) {
    this.templatePages = new Paginator(
      pageSize,
      () => this.templates.values(),
      (entry) => entry.template.template,
    );
  }

  get size(): number {
    return this.fixed.size + this.templates.size;
  }

  /** Whether any template has a completer. */
  get completes(): boolean {
    for (const entry of this.templates.values()) if (entry.options.complete) return true;
    return false;
  }

  add(uri: string, meta: ResourceMeta, read: ReadResource, options: ResourceOptions = {}): void {
    if (this.fixed.has(uri)) throw new Error(`A resource with URI "${uri}" is already registered`);
    const scopes = scopesOption(options.scopes, `resource "${uri}"`);
    this.fixed.set(uri, { description: { uri, ...meta }, read, cache: options.cache, scopes });
    this.onChange();
  }

  addTemplate(
    uriTemplate: string,
    meta: ResourceTemplateMeta,
    read: ReadTemplateResource,
    options: ResourceTemplateOptions,
  ): void {
    if (this.templates.has(uriTemplate))
      throw new Error(`A resource template "${uriTemplate}" is already registered`);
    const template = new UriTemplate(uriTemplate);
    for (const name of Object.keys(options.complete ?? {})) {
      if (!template.variableNames.includes(name)) {
        throw new TypeError(`Template "${uriTemplate}" has no variable "${name}" to complete`);
      }
    }
    const scopes = scopesOption(options.scopes, `resource template "${uriTemplate}"`);
    this.templates.set(uriTemplate, {
      template,
      description: { uriTemplate, ...meta },
      read,
      options,
      scopes,
    });
    this.templatePages.invalidate();
    this.onChange();
  }

  remove(uriOrTemplate: string): boolean {
    const removed = this.fixed.delete(uriOrTemplate) || this.templates.delete(uriOrTemplate);
    if (removed) {
      this.templatePages.invalidate();
      this.onChange();
    }
    return removed;
  }

  async list(
    cursor: unknown,
    ctx: RequestContext,
    revision: Revision,
    visible?: Visible,
  ): Promise<ListResourcesResult> {
    const all: Resource[] = [];
    for (const { description, scopes } of this.fixed.values())
      if (!visible || visible(scopes)) all.push(description);
    for (const { options, scopes } of this.templates.values())
      if (options.list && (!visible || visible(scopes))) all.push(...(await options.list(ctx)));
    const { items, nextCursor } = pageOf(
      sortByKey(all, (r) => r.uri),
      (r) => r.uri,
      cursor,
      this.pageSize,
    );
    const resources = items.map((item) => adaptDescription(item, revision));
    return nextCursor === undefined ? { resources } : { resources, nextCursor };
  }

  listTemplates(cursor: unknown, revision: Revision, visible?: Visible): ListResourceTemplatesResult {
    const { items, nextCursor } = this.templatePages.page(
      cursor,
      visible && ((entry) => visible(entry.scopes)),
    );
    const resourceTemplates = items.map((entry) => adaptDescription(entry.description, revision));
    return nextCursor === undefined ? { resourceTemplates } : { resourceTemplates, nextCursor };
  }

  /** The caching hints of the resource a URI names, if it has its own. */
  cacheHint(uri: string): ResourceCache["cache"] {
    const fixed = this.fixed.get(uri);
    if (fixed) return fixed.cache;
    return this.matching(uri)?.[0].options.cache;
  }

  /**
   * The scopes of the resource a URI names (a fixed one's, or its template's). It runs before the
   * handler, so it refuses a URI over the length cap itself: matching one costs time by length.
   */
  scopesOf(uri: unknown): Scopes {
    if (typeof uri !== "string") return undefined;
    const fixed = this.fixed.get(uri);
    if (fixed) return fixed.scopes;
    return this.matching(uri)?.[0].scopes;
  }

  /** The scopes of a template, by its URI template. */
  templateScopes(uriTemplate: unknown): Scopes {
    return typeof uriTemplate === "string" ? this.templates.get(uriTemplate)?.scopes : undefined;
  }

  /** Every scope some resource or template needs. */
  *declaredScopes(): Iterable<string> {
    for (const { scopes } of this.fixed.values()) if (scopes) yield* scopes;
    for (const { scopes } of this.templates.values()) if (scopes) yield* scopes;
  }

  /** Whether a URI names a resource: a fixed one or one a template matches. */
  has(uri: string): boolean {
    if (this.fixed.has(uri)) return true;
    return this.matching(uri) !== undefined;
  }

  async read(params: Record<string, unknown>, ctx: RequestContext): Promise<ReadResourceResult> {
    const uri = params.uri;
    if (typeof uri !== "string")
      throw new McpError(ErrorCode.InvalidParams, 'resources/read needs a string "uri"');
    const fixed = this.fixed.get(uri);
    if (fixed) return toReadResult(uri, fixed.description.mimeType, await fixed.read(uri, ctx));
    const found = this.matching(uri);
    if (found) {
      const [entry, variables] = found;
      return toReadResult(uri, entry.description.mimeType, await entry.read(uri, variables, ctx));
    }
    throw new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
  }

  /** The template that matches a URI, and its variables; a URI over the length cap is -32602. */
  private matching(uri: string): [TemplateEntry, UriTemplateMatch] | undefined {
    if (uri.length > this.maxUriLength) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params: the URI is ${uri.length} characters long; this server accepts at most ${this.maxUriLength}`,
      );
    }
    for (const entry of this.templates.values()) {
      const variables = entry.template.match(uri);
      if (variables) return [entry, variables];
    }
    return undefined;
  }

  /** Completes a template variable; `undefined` if no template has this URI template. */
  completeVariable(uriTemplate: string, name: string, value: string, context: Record<string, string>) {
    const entry = this.templates.get(uriTemplate);
    if (!entry) return undefined;
    return complete(entry.options.complete?.[name], value, context);
  }
}

function isContents(value: object): value is ResourceContents {
  return typeof (value as { uri?: unknown }).uri === "string";
}

/** Shapes what a read handler returned into a `ReadResourceResult`. */
function toReadResult(uri: string, mimeType: string | undefined, value: ResourceReturn): ReadResourceResult {
  const withType = <T extends ResourceContents>(contents: T): T =>
    mimeType === undefined || contents.mimeType !== undefined ? contents : { ...contents, mimeType };
  if (typeof value === "string") return { contents: [withType({ uri, text: value })] };
  if (value instanceof Uint8Array) {
    const blob = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64");
    return { contents: [withType({ uri, blob })] };
  }
  if (Array.isArray(value)) return { contents: value };
  if (isContents(value)) return { contents: [value] };
  return value;
}
