import path from "node:path";
import { FsError } from "./errors.js";
import type { Roots } from "./paths.js";
import { listDirectory } from "./safe-open.js";

const GLOB_CHARS = /[*?[{]/;
const MAX_PATTERN = 500;

/**
 * Compiles a glob: `*` (any characters but `/`), `**` (any depth, `**​/` also none), `?`, `[abc]`,
 * `[!abc]`, `{a,b}`. Everything else is literal.
 */
function globToRegExp(glob: string): RegExp {
  let out = "";
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        i++;
        if (glob[i + 1] === "/") {
          i++;
          out += "(?:.*/)?";
        } else out += ".*";
      } else out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close === -1) out += "\\[";
      else {
        let body = glob.slice(i + 1, close).replace(/\\/g, "\\\\");
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        out += `[${body}]`;
        i = close;
      }
    } else if (c === "{") {
      braces++;
      out += "(?:";
    } else if (c === "}" && braces > 0) {
      braces--;
      out += ")";
    } else if (c === "," && braces > 0) out += "|";
    else out += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  if (braces > 0) throw new FsError(`Invalid pattern "${glob}": unclosed "{"`, "EINVAL");
  return new RegExp(`^${out}$`, "i");
}

/**
 * A test on an entry's path relative to the search directory (with `/`) and its name: a pattern with a
 * `/` matches the relative path, one without matches the name at any depth, and one without any glob
 * character matches names containing it (case-insensitively).
 */
function compilePattern(pattern: string): (relative: string, name: string) => boolean {
  if (pattern.length > MAX_PATTERN)
    throw new FsError(`The pattern is too long (over ${MAX_PATTERN} characters)`);
  if (!GLOB_CHARS.test(pattern)) {
    const needle = pattern.toLowerCase();
    return pattern.includes("/")
      ? (relative) => relative.toLowerCase().includes(needle)
      : (_, name) => name.toLowerCase().includes(needle);
  }
  const regexp = globToRegExp(pattern);
  return pattern.includes("/") ? (relative) => regexp.test(relative) : (_, name) => regexp.test(name);
}

interface SearchOptions {
  pattern: string;
  exclude?: readonly string[];
  maxResults: number;
  /** Most directory entries looked at before stopping. */
  maxVisited: number;
}

interface SearchResult {
  matches: string[];
  /** Why the search stopped early, if it did. */
  stopped?: string;
  /** Directories that could not be read. */
  skipped: number;
}

/**
 * Searches a directory tree (real path, inside the roots) breadth-first, never following symbolic
 * links, reading each directory through a verified descriptor. Excluded entries are neither matched
 * nor descended into.
 */
export async function searchTree(
  roots: Roots,
  start: string,
  display: string,
  options: SearchOptions,
): Promise<SearchResult> {
  const matches = compilePattern(options.pattern);
  const excluded = (options.exclude ?? []).map(compilePattern);
  const found: string[] = [];
  const queue = [start];
  let visited = 0;
  let skipped = 0;
  while (queue.length > 0) {
    const dir = queue.shift()!;
    let entries: Awaited<ReturnType<typeof listDirectory>>;
    try {
      entries = await listDirectory(roots, dir, dir === start ? display : dir);
    } catch (error) {
      if (dir === start) throw error;
      skipped++;
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (++visited > options.maxVisited) {
        return { matches: found, skipped, stopped: `looked at ${options.maxVisited} entries` };
      }
      const full = path.join(dir, entry.name);
      const relative = path.relative(start, full).split(path.sep).join("/");
      if (excluded.some((test) => test(relative, entry.name))) continue;
      if (matches(relative, entry.name)) {
        found.push(full);
        if (found.length >= options.maxResults) {
          return { matches: found, skipped, stopped: `reached ${options.maxResults} results` };
        }
      }
      if (entry.isDirectory()) queue.push(full);
    }
  }
  return { matches: found, skipped };
}
