/**
 * A failure of a filesystem operation, worded for the model: it names the path as the caller gave
 * it. Tool handlers let it propagate, so it becomes an `isError` result.
 */
export class FsError extends Error {
  override readonly name = "FsError";

  constructor(
    message: string,
    /** The Node error code behind it (`ENOENT`, …), or `EACCESS_DENIED` for a refused path. */
    readonly code: string = "EFS",
  ) {
    super(message);
  }
}

/** A path refused because it leads outside the allowed directories. */
export function denied(path: string, why: string): FsError {
  return new FsError(`Access denied: "${path}" ${why}`, "EACCESS_DENIED");
}

const REASONS: Record<string, string> = {
  ENOENT: "does not exist",
  EACCES: "is not accessible (permission denied)",
  EPERM: "is not accessible (operation not permitted)",
  EISDIR: "is a directory",
  ENOTDIR: "is not a directory (or a component of it is not)",
  ELOOP: "is a symbolic link (or has too many levels of them)",
  EEXIST: "already exists",
  ENOTEMPTY: "is a directory that is not empty",
  EXDEV: "is on another device (cannot move across file systems)",
  EINVAL: "is not valid for this operation",
  EBUSY: "is busy",
  ENAMETOOLONG: "is too long a name",
  EMFILE: "could not be opened (too many open files)",
};

/** Turns any error of an operation on `path` into an `FsError` naming `path`. */
export function describeError(error: unknown, path: string, action = "access"): FsError {
  if (error instanceof FsError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = code !== undefined ? REASONS[code] : undefined;
  if (reason !== undefined) return new FsError(`Cannot ${action} "${path}": it ${reason}`, code);
  const message = error instanceof Error ? error.message : String(error);
  return new FsError(`Cannot ${action} "${path}": ${message}`, code);
}

/** Runs `operation`, rethrowing any failure as an `FsError` that names `path`. */
export async function on<T>(path: string, action: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw describeError(error, path, action);
  }
}

/** A byte count for people: 512 B, 1.5 KiB, 3.2 MiB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1).replace(/\.0$/, "")} ${units[unit]}`;
}
