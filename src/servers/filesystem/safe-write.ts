import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { link, lstat, open, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { denied, FsError, on } from "./errors.js";
import { type Entry, isInside, type Roots } from "./paths.js";
import { openChecked, verifyHandle } from "./safe-open.js";

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;

/** `lstat`, or `undefined` when nothing is there. */
async function lstatOrNone(file: string): Promise<Stats | undefined> {
  try {
    return await lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Refuses to replace anything but a regular file: never a symbolic link, whatever it points to. */
function assertReplaceable(stats: Stats, display: string): void {
  if (stats.isSymbolicLink()) {
    throw new FsError(
      `Refusing to write "${display}": it is a symbolic link (write to the file it points to instead)`,
      "ELOOP",
    );
  }
  if (stats.isDirectory()) throw new FsError(`Cannot write "${display}": it is a directory`, "EISDIR");
  if (!stats.isFile()) throw new FsError(`Cannot write "${display}": it is not a regular file`, "EINVAL");
}

/** What a write did. */
interface Written {
  /** The real path written. */
  path: string;
  /** Whether the file is new. */
  created: boolean;
}

/**
 * Opens and verifies the directory of an entry and runs `use` with a path naming that very directory
 * (`/proc/self/fd/N` on Linux, so every operation under it acts on the directory checked, like
 * `openat`, whatever is swapped meanwhile; its real path elsewhere). `still()` re-checks it is inside.
 */
async function inDirectory<T>(
  roots: Roots,
  entry: Entry,
  display: string,
  action: string,
  use: (at: (name: string) => string, still: () => Promise<boolean>) => Promise<T>,
): Promise<T> {
  const dir = await openChecked(roots, entry.parent, display, action, true).catch((error: unknown) => {
    const code = (error as { code?: string }).code;
    if (code !== "ENOENT" && code !== "ENOTDIR" && code !== "ELOOP") throw error;
    throw new FsError(
      `Cannot ${action} "${display}": its directory was removed or replaced (by a link or a file) while it was being checked`,
      code,
    );
  });
  const still = () =>
    verifyHandle(dir.handle, entry.parent, roots, display).then(
      () => true,
      () => false,
    );
  try {
    return await use((name) => path.join(dir.at, name), still);
  } finally {
    await dir.handle.close();
  }
}

/**
 * Writes a file atomically and safely. In its verified, pinned directory (see `inDirectory`) the data
 * goes to a new temporary file, created exclusively without following links and verified after
 * opening, which is then renamed over the target. A symbolic link at the target is refused, before
 * and again just before the rename; the rename itself replaces a name and never writes through a
 * link. An existing file keeps its permissions (not its owner, nor its other hard links).
 */
export async function writeFileSafely(
  roots: Roots,
  requested: string,
  data: string | Uint8Array,
): Promise<Written> {
  const entry = await roots.entry(requested, "write");
  const name = path.basename(entry.path);
  return inDirectory(roots, entry, requested, "write", async (at) => {
    const before = await on(requested, "write", () => lstatOrNone(at(name)));
    if (before) assertReplaceable(before, requested);
    const temp = at(`.mcpkit-${randomBytes(8).toString("hex")}.tmp`);
    const mode = before ? before.mode & 0o7777 : 0o666;
    const handle = await on(requested, "write", () => open(temp, CREATE_NEW, mode));
    let open_ = true;
    let renamed = false;
    try {
      await verifyHandle(handle, temp, roots, requested);
      await handle.writeFile(data);
      if (before) await handle.chmod(mode); // the umask may have narrowed it
      await handle.sync();
      await handle.close();
      open_ = false;
      const now = await lstatOrNone(at(name));
      if (now) assertReplaceable(now, requested);
      await on(requested, "write", () => rename(temp, at(name)));
      renamed = true;
    } finally {
      if (open_) await handle.close().catch(() => {});
      if (!renamed) await unlink(temp).catch(() => {});
    }
    return { path: entry.path, created: before === undefined };
  });
}

/** What a move did. */
interface Moved {
  from: string;
  to: string;
}

/**
 * Moves a file or directory, both ends inside the roots, both directories verified and pinned (see
 * `inDirectory`); never replaces an existing destination. A file is hard-linked to its new name (which
 * fails if the name was taken meanwhile) and then unlinked from the old one; a directory or link is
 * renamed after checking the name is free. The destination directory is checked again afterwards,
 * and the move undone if it is no longer inside.
 */
export async function moveSafely(roots: Roots, source: string, destination: string): Promise<Moved> {
  const from = await roots.entry(source, "move");
  const to = await roots.entry(destination, "move to");
  const exists = () =>
    new FsError(`Cannot move "${source}" to "${destination}": the destination already exists`, "EEXIST");
  const failed = (error: unknown) =>
    new FsError(
      `Cannot move "${source}" to "${destination}": ${describeCode(error)}`,
      (error as NodeJS.ErrnoException).code,
    );
  const escaped = () =>
    denied(destination, "changed during the move to lead outside the allowed directories");
  return inDirectory(roots, from, source, "move", (fromAt) =>
    inDirectory(roots, to, destination, "move to", async (toAt, stillInside) => {
      const src = fromAt(path.basename(from.path));
      const dst = toAt(path.basename(to.path));
      const stats = await on(source, "move", () => lstat(src));
      if (await on(destination, "move to", () => lstatOrNone(dst))) throw exists();
      if (stats.isDirectory() && isInside(from.path, to.path)) {
        throw new FsError(`Cannot move the directory "${source}" into itself ("${destination}")`, "EINVAL");
      }
      let linked = false;
      if (stats.isFile()) {
        try {
          await link(src, dst);
          linked = true;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "EEXIST") throw exists();
          // Without hard links here (or not allowed to link): a checked rename instead.
          if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP") throw failed(error);
        }
      }
      if (linked) {
        if (!(await stillInside())) {
          await unlink(dst).catch(() => {});
          throw escaped();
        }
        await on(source, "move", () => unlink(src));
        return { from: from.path, to: to.path };
      }
      if (await lstatOrNone(dst)) throw exists();
      await rename(src, dst).catch((error: unknown) => {
        throw failed(error);
      });
      if (!(await stillInside())) {
        await rename(dst, src).catch(() => {});
        throw escaped();
      }
      return { from: from.path, to: to.path };
    }),
  );
}

function describeCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EXDEV") return "they are on different file systems";
  if (code === "ENOTEMPTY" || code === "EEXIST") return "the destination already exists";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "ENOTDIR") return "a component of the path is not a directory";
  if (code === "EINVAL") return "a directory cannot be moved into itself";
  return error instanceof Error ? error.message : String(error);
}

/** Refuses, before any work, a write target that is outside, a root, a link, a directory or special. */
export async function assertWritable(roots: Roots, requested: string, action = "write"): Promise<void> {
  const entry = await roots.entry(requested, action);
  const stats = await on(requested, action, () => lstatOrNone(entry.path));
  if (stats) assertReplaceable(stats, requested);
}
