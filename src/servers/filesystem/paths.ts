import { realpathSync, statSync } from "node:fs";
import { realpath } from "node:fs/promises";
import path from "node:path";
import { denied, FsError, on } from "./errors.js";

/**
 * Whether `candidate` is `dir` or lies under it, comparing whole path components: `/allowed_evil`
 * is not inside `/allowed`. Both must be absolute and normalised.
 */
export function isInside(dir: string, candidate: string): boolean {
  const relative = path.relative(dir, candidate);
  return (
    relative === "" ||
    (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  );
}

/** An existing entry inside the roots, named without following its last component. */
export interface Entry {
  /** The real path of its directory joined with its own name. */
  path: string;
  /** The real path of the directory holding it (inside the roots). */
  parent: string;
}

/**
 * The allowed directories, and the one place that decides whether a requested path is inside them.
 *
 * A request is checked twice: lexically (after resolving `.` and `..`, so `..` escapes, absolute paths
 * elsewhere and sibling-prefix names are refused before touching the disk) and then by its real path
 * (so a symbolic link anywhere on the way, final or intermediate, cannot lead outside). Relative paths
 * are taken from the first root. A root given through a symbolic link (`/tmp` → `/private/tmp`) may be
 * named either way. Opening and writing re-check what was actually opened (see `safe-open.ts` and
 * `safe-write.ts`), since the file system can change between a check and its use.
 */
export class Roots {
  /** The real paths of the roots, as given (duplicates removed). */
  readonly dirs: readonly string[];
  /** [as given, resolved but not real; real path], to map requests made through a root's alias. */
  private readonly aliases: readonly (readonly [string, string])[];

  private constructor(dirs: string[], aliases: [string, string][]) {
    this.dirs = dirs;
    this.aliases = aliases;
  }

  /** Resolves each directory (relative to the working directory) to its real path; throws if one is not a directory. */
  static resolve(dirs: readonly string[]): Roots {
    if (dirs.length === 0) throw new Error("The filesystem server needs at least one allowed directory");
    const real: string[] = [];
    const aliases: [string, string][] = [];
    for (const dir of dirs) {
      const given = path.resolve(dir);
      let resolved: string;
      try {
        resolved = realpathSync(given);
        if (!statSync(resolved).isDirectory()) throw new Error("not a directory");
      } catch (error) {
        const why =
          (error as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : "is not a directory";
        throw new Error(`Allowed directory "${dir}" ${why}`);
      }
      if (!real.includes(resolved)) real.push(resolved);
      aliases.push([given, resolved]);
    }
    for (const dir of real) aliases.push([dir, dir]);
    // Longest alias first, so a nested root wins over the root that contains it.
    aliases.sort((a, b) => b[0].length - a[0].length);
    return new Roots(real, aliases);
  }

  /** Whether a real path is inside one of the roots. */
  contains(realPath: string): boolean {
    return this.dirs.some((dir) => isInside(dir, realPath));
  }

  /** Whether a real path is one of the roots itself. */
  isRoot(realPath: string): boolean {
    return this.dirs.includes(realPath);
  }

  /** The root a real path is in (the innermost one). */
  rootOf(realPath: string): string | undefined {
    let best: string | undefined;
    for (const dir of this.dirs)
      if (isInside(dir, realPath) && (!best || dir.length > best.length)) best = dir;
    return best;
  }

  /**
   * The absolute, normalised path a request names, expressed under a real root; refuses a request that
   * is lexically outside every root. Does not touch the disk.
   */
  lexical(requested: unknown): string {
    if (typeof requested !== "string" || requested.trim() === "") {
      throw new FsError("A path is required (a non-empty string)", "EINVAL");
    }
    if (requested.includes("\0")) throw denied(requested, "contains a NUL character");
    // On POSIX a backslash is an ordinary character: `C:\Windows\win.ini` would name a file of
    // that name inside the root, not what its sender meant.
    if (path.sep === "/" && requested.includes("\\")) {
      throw new FsError(
        `Invalid path "${requested}": it contains "\\", which this server's file system does not use as a separator; use "/"`,
        "EINVAL",
      );
    }
    const absolute = path.isAbsolute(requested)
      ? path.resolve(requested)
      : path.resolve(this.dirs[0]!, requested);
    for (const [alias, real] of this.aliases) {
      if (isInside(alias, absolute)) return path.join(real, path.relative(alias, absolute));
    }
    const escapes = requested.split(/[\\/]/).includes("..");
    throw denied(
      requested,
      escapes
        ? `escapes the allowed directories with ".." (allowed: ${this.list()})`
        : `is outside the allowed directories (allowed: ${this.list()})`,
    );
  }

  /**
   * The real path of an existing file or directory, following every symbolic link, refused unless it
   * is inside a root. A missing path is an error naming it.
   */
  async existing(requested: string, action = "access"): Promise<string> {
    const lexical = this.lexical(requested);
    const real = await on(requested, action, () => realpath(lexical));
    if (!this.contains(real)) {
      throw denied(requested, "leads through a symbolic link to a place outside the allowed directories");
    }
    return real;
  }

  /**
   * An entry to create, replace or move: its directory must exist and really be inside a root (a
   * symbolic link to a directory outside is refused); its last component is not followed. A root
   * itself is refused.
   */
  async entry(requested: string, action: string): Promise<Entry> {
    const lexical = this.lexical(requested);
    if (this.aliases.some(([alias, real]) => alias === lexical || real === lexical)) {
      throw new FsError(`Cannot ${action} "${requested}": it is an allowed directory itself`, "EINVAL");
    }
    const directory = path.dirname(lexical);
    const parent = await on(requested, action, async () => {
      try {
        return await realpath(directory);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        throw new FsError(`Cannot ${action} "${requested}": its directory does not exist`, "ENOENT");
      }
    });
    if (!this.contains(parent)) {
      throw denied(
        requested,
        "is in a directory that leads through a symbolic link to a place outside the allowed directories",
      );
    }
    return { path: path.join(parent, path.basename(lexical)), parent };
  }

  /** The roots, comma-separated, for messages. */
  list(): string {
    return this.dirs.join(", ");
  }
}
