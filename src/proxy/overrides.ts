/**
 * How the proxy shows each tool: renamed, described anew, and with its annotations believed only
 * from a trusted upstream. And the binding of names to tools, which holds for the proxy's life.
 */
import type { ToolAnnotations } from "../protocol/types/tools.js";

/** How one tool is shown, keyed `"server/tool"` (which wins) or `"tool"` (on any server). */
export interface ToolOverride {
  /** The name clients call it by, instead of the proxy's own naming. */
  name?: string;
  /** The description clients see, instead of the upstream's. */
  description?: string;
  /** The title clients see, instead of the upstream's. */
  title?: string;
}

const KEYS = new Set(["name", "description", "title"]);
/** The characters of a tool name the 2025-11-25 revision recommends. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The overrides of a proxy, checked once: a `TypeError` names the entry that is wrong. */
export class ToolOverrides {
  constructor(private readonly overrides: Readonly<Record<string, ToolOverride>> = {}) {
    const names = new Map<string, string>();
    for (const [key, override] of Object.entries(overrides)) {
      if (typeof override !== "object" || override === null || Array.isArray(override))
        throw new TypeError(`tools["${key}"] must be an object such as { "name": "…" }`);
      for (const field of Object.keys(override)) {
        if (!KEYS.has(field))
          throw new TypeError(`tools["${key}"]: unknown key "${field}" (it takes name, description, title)`);
        if (typeof override[field as keyof ToolOverride] !== "string")
          throw new TypeError(`tools["${key}"].${field} must be a string`);
      }
      if (override.name === undefined) continue;
      if (!TOOL_NAME.test(override.name))
        throw new TypeError(
          `tools["${key}"].name "${override.name}" is not a valid tool name (A-Z a-z 0-9 _ - ., 1-128)`,
        );
      const other = names.get(override.name);
      if (other !== undefined)
        throw new TypeError(`tools["${key}"] and tools["${other}"] are both named "${override.name}"`);
      names.set(override.name, key);
    }
  }

  /** The override of `tool` on `server`: its `server/tool` entry over its `tool` entry. */
  of(server: string, tool: string): ToolOverride | undefined {
    const own = Object.hasOwn(this.overrides, `${server}/${tool}`)
      ? this.overrides[`${server}/${tool}`]
      : undefined;
    const any = Object.hasOwn(this.overrides, tool) ? this.overrides[tool] : undefined;
    return own === undefined ? any : any === undefined ? own : { ...any, ...own };
  }
}

/**
 * The annotations a client is shown: an untrusted upstream's hints (read-only, destructive,
 * idempotent, open-world) are dropped, so a client falls back to the cautious defaults the spec
 * gives for absent hints. Its `title` is kept.
 */
export function shownAnnotations(
  annotations: ToolAnnotations | undefined,
  trusted: boolean,
): ToolAnnotations | undefined {
  if (trusted || annotations === undefined) return annotations;
  return annotations.title === undefined ? undefined : { title: annotations.title };
}

/**
 * Which tool each name calls. A name, once given to a tool (server and name upstream), stays that
 * tool's for the proxy's life: when the upstreams' lists change, another tool that would take the
 * name (by a rename, or a server that now offers it too) is left out with a warning instead, so a
 * client calling a name it knows never reaches another tool than before.
 */
export class NameBindings {
  private readonly bound = new Map<string, string>();

  /** Binds `name` to the tool, or says which tool holds it. */
  claim(name: string, server: string, tool: string): string | undefined {
    const key = `${server}/${tool}`;
    const holder = this.bound.get(name);
    if (holder === undefined) {
      this.bound.set(name, key);
      return undefined;
    }
    return holder === key ? undefined : holder;
  }
}
