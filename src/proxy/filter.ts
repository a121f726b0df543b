/**
 * Which tools a proxy lets through: allow and deny lists per server, from the config file
 * (`allowTools`, `denyTools` in a server's entry) and from the caller (`--allow`, `--deny`).
 */

/** The lists a server entry of a proxy config may carry. */
export interface ToolLists {
  /** Only these tools of the server are exposed (names, `*` matches any characters). */
  allowTools?: string[];
  /** These tools of the server are never exposed, even if allowed. */
  denyTools?: string[];
}

/**
 * One rule given for all servers: `"tool"` (that tool on every server) or `"server/tool"` (one
 * server's). The tool part may use `*` as a wildcard: `"fs/write_*"`, `"*_delete"`.
 */
export type ToolRule = string;

/** A rule split into its server (absent: every server) and its tool pattern. */
export interface ParsedRule {
  server?: string;
  tool: string;
}

/** Splits `server/tool` at the first `/`; throws a `TypeError` naming what is wrong. */
export function parseToolRule(rule: ToolRule): ParsedRule {
  const slash = rule.indexOf("/");
  if (slash < 0) {
    if (rule.length === 0) throw new TypeError("a tool rule cannot be empty");
    return { tool: rule };
  }
  const server = rule.slice(0, slash);
  const tool = rule.slice(slash + 1);
  if (server.length === 0 || tool.length === 0) {
    throw new TypeError(`expected "tool" or "server/tool", not "${rule}"`);
  }
  return { server, tool };
}

/** Whether `name` matches `pattern`, where `*` stands for any run of characters (nothing else is special). */
export function matchesPattern(pattern: string, name: string): boolean {
  if (!pattern.includes("*")) return pattern === name;
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`, "s").test(name);
}

/** Checks the `allowTools` and `denyTools` of one server entry; throws a `TypeError` naming the problem. */
export function checkToolLists(server: string, entry: unknown): ToolLists {
  const lists: ToolLists = {};
  for (const key of ["allowTools", "denyTools"] as const) {
    const value = (entry as Record<string, unknown> | null)?.[key];
    if (value === undefined) continue;
    if (!Array.isArray(value) || !value.every((item) => typeof item === "string" && item.length > 0)) {
      throw new TypeError(`server "${server}": "${key}" must be an array of tool names`);
    }
    lists[key] = value as string[];
  }
  return lists;
}

/**
 * Decides, per server and tool, whether the proxy exposes it. A server has an allow list if its
 * entry has `allowTools` or an `allow` rule names it (or names no server): then only the tools that
 * list matches are exposed. A tool any deny rule matches is never exposed: deny wins over allow.
 *
 * @example
 * const policy = new ToolPolicy({ fs: { denyTools: ["write_*"] } }, { allow: [], deny: ["calc/evaluate"] });
 * policy.allows("fs", "write_file"); // false
 */
export class ToolPolicy {
  private readonly allow: ParsedRule[];
  private readonly deny: ParsedRule[];

  constructor(
    /** The lists of each server's config entry, by server name. */
    private readonly lists: Record<string, ToolLists> = {},
    rules: { allow?: readonly ToolRule[]; deny?: readonly ToolRule[] } = {},
  ) {
    this.allow = (rules.allow ?? []).map(parseToolRule);
    this.deny = (rules.deny ?? []).map(parseToolRule);
  }

  /** The server names the rules mention, to check them against the servers there are. */
  get serversNamed(): string[] {
    return [...new Set([...this.allow, ...this.deny].flatMap((rule) => (rule.server ? [rule.server] : [])))];
  }

  /** Whether the tool `tool` of server `server` is exposed. */
  allows(server: string, tool: string): boolean {
    const own = Object.hasOwn(this.lists, server) ? this.lists[server] : undefined;
    const forServer = (rule: ParsedRule) => rule.server === undefined || rule.server === server;
    const allowed = [...(own?.allowTools ?? []), ...this.allow.filter(forServer).map((rule) => rule.tool)];
    const restricted = own?.allowTools !== undefined || this.allow.some(forServer);
    if (restricted && !allowed.some((pattern) => matchesPattern(pattern, tool))) return false;
    const denied = [...(own?.denyTools ?? []), ...this.deny.filter(forServer).map((rule) => rule.tool)];
    return !denied.some((pattern) => matchesPattern(pattern, tool));
  }
}
