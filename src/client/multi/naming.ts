import { nodeCrypto } from "../../util/crypto.js";

/**
 * What to do when two servers offer tools with the same name:
 * - `"prefix-on-conflict"` (default): those tools become `server__tool`; the others keep their name.
 * - `"prefix-always"`: every tool is `server__tool`.
 * - `"error"`: `tools()` throws a `ToolNameConflictError` naming them.
 */
export type CollisionPolicy = "prefix-on-conflict" | "prefix-always" | "error";

/** The longest tool name OpenAI, Anthropic and Gemini all accept. */
export const MAX_TOOL_NAME_LENGTH = 64;
/** Between the server's name and the tool's. */
export const SERVER_SEPARATOR = "__";

/** Two or more servers offer a tool of the same name, and the policy is `"error"`. */
export class ToolNameConflictError extends Error {
  override readonly name = "ToolNameConflictError";
  constructor(
    /** Each conflicting name and the servers that offer it. */
    readonly conflicts: { name: string; servers: string[] }[],
  ) {
    super(
      `Several servers offer tools of the same name: ${conflicts
        .map(({ name, servers }) => `${name} (${servers.join(", ")})`)
        .join("; ")}`,
    );
  }
}

/** 8 hex digits of SHA-256: stable across runs and machines. */
function shortHash(value: string): string {
  return nodeCrypto().createHash("sha256").update(value).digest("hex").slice(0, 8);
}

/** `name` cut to the limit, ending in a hash of `key` (what it stands for) when it had to be cut. */
function fitName(name: string, key: string): string {
  if (name.length <= MAX_TOOL_NAME_LENGTH) return name;
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - 9)}_${shortHash(key)}`;
}

/**
 * A name LLM providers accept: `[a-zA-Z0-9_-]{1,64}`. Other characters become `_`; a longer name is
 * cut and ends in `_` and 8 hex digits of a hash of the original, so distinct names stay distinct.
 */
export function sanitizeToolName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9_-]/g, "_") || "tool";
  return fitName(clean, name);
}

/** One tool to name: which server offers it, and its MCP name. */
export interface ToolToName {
  server: string;
  tool: string;
}

/**
 * The names the model sees, one per entry, in order, unique, each `[a-zA-Z0-9_-]{1,64}`. The same
 * input always gives the same names. If sanitizing makes two names equal, both get a hash suffix.
 */
export function assignToolNames(entries: readonly ToolToName[], policy: CollisionPolicy): string[] {
  const bases = entries.map((entry) => sanitizeToolName(entry.tool));
  const serversOf = new Map<string, Set<string>>();
  bases.forEach((base, i) => {
    const servers = serversOf.get(base) ?? new Set<string>();
    servers.add(entries[i]!.server);
    serversOf.set(base, servers);
  });
  const shared = (base: string) => serversOf.get(base)!.size > 1;
  if (policy === "error") {
    const conflicts = [...serversOf]
      .filter(([, servers]) => servers.size > 1)
      .map(([name, servers]) => ({ name, servers: [...servers] }));
    if (conflicts.length > 0) throw new ToolNameConflictError(conflicts);
  }
  const names = entries.map(({ server, tool }, i) => {
    if (policy !== "prefix-always" && !shared(bases[i]!)) return bases[i]!;
    const qualified = `${server}${SERVER_SEPARATOR}${tool}`;
    const clean = `${server.replace(/[^a-zA-Z0-9_-]/g, "_")}${SERVER_SEPARATOR}${tool.replace(/[^a-zA-Z0-9_-]/g, "_")}`;
    return fitName(clean, qualified);
  });
  // Still equal (`a.b` and `a_b` on one server, a tool literally named `x__y`…): tell them apart.
  const count = new Map<string, number>();
  for (const name of names) count.set(name, (count.get(name) ?? 0) + 1);
  return names.map((name, i) => {
    if (count.get(name) === 1) return name;
    const key = `${entries[i]!.server}\u0000${entries[i]!.tool}`;
    return `${name.slice(0, MAX_TOOL_NAME_LENGTH - 9)}_${shortHash(key)}`;
  });
}
