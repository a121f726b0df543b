import { constants, type Dirent, type Stats } from "node:fs";
import { type FileHandle, open, readdir, readlink, realpath, stat } from "node:fs/promises";
import { denied, FsError, formatBytes, on } from "./errors.js";
import type { Roots } from "./paths.js";

// Absent on Windows: there the open falls back to the path checks alone.
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0; // a FIFO must not block the open
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;

/** An open file or directory whose real location was checked after it was opened. */
interface Opened {
  handle: FileHandle;
  stats: Stats;
  /** The real path it was opened by. */
  real: string;
  /** A path naming exactly the opened object: `/proc/self/fd/N` on Linux, else its real path. */
  at: string;
}

/**
 * Checks, after opening, that the descriptor really is inside the roots. On Linux the kernel tells
 * where the descriptor points (`/proc/self/fd/N`); elsewhere the real path is resolved again and must
 * be the same file (device and inode) as the one opened. This closes the race between checking a
 * path and opening it: whatever was swapped in between, what is used is what is checked.
 */
export async function verifyHandle(
  handle: FileHandle,
  real: string,
  roots: Roots,
  display: string,
): Promise<Opened> {
  const stats = await handle.stat();
  const proc = `/proc/self/fd/${handle.fd}`;
  const linked = await readlink(proc).catch(() => undefined);
  if (linked?.startsWith("/")) {
    if (!roots.contains(linked))
      throw denied(display, "was swapped for a place outside the allowed directories");
    return { handle, stats, real, at: proc };
  }
  const again = await realpath(real);
  const now = await stat(again);
  if (!roots.contains(again) || now.dev !== stats.dev || now.ino !== stats.ino) {
    throw denied(display, "changed while it was being opened; refusing to use it");
  }
  return { handle, stats, real, at: again };
}

/** Opens a real path (already checked to be inside) without following a final symbolic link, then verifies it. */
export async function openChecked(
  roots: Roots,
  real: string,
  display: string,
  action: string,
  directory = false,
): Promise<Opened> {
  const flags = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK | (directory ? O_DIRECTORY : 0);
  const handle = await on(display, action, () => open(real, flags));
  try {
    return await verifyHandle(handle, real, roots, display);
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Resolves a requested path inside the roots and opens it safely; the caller closes `handle`. */
export async function openPath(roots: Roots, requested: string, action: string): Promise<Opened> {
  const real = await roots.existing(requested, action);
  return openChecked(roots, real, requested, action);
}

/** The entries of a directory (real path, inside the roots), read from the directory actually checked. */
export async function listDirectory(roots: Roots, real: string, display: string): Promise<Dirent[]> {
  const opened = await openChecked(roots, real, display, "list", true);
  try {
    return await on(display, "list", () => readdir(opened.at, { withFileTypes: true }));
  } finally {
    await opened.handle.close();
  }
}

/** Refuses what is not a regular file. */
function assertFile(stats: Stats, display: string): void {
  if (stats.isDirectory()) throw new FsError(`"${display}" is a directory, not a file`, "EISDIR");
  if (!stats.isFile()) throw new FsError(`"${display}" is not a regular file`, "EINVAL");
}

const CHUNK = 64 * 1024;

/** Reads `length` bytes at `position` (fewer at the end of the file). */
async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/** The whole file, refused with a message saying how to read part of it if it is over `limit` bytes. */
export async function readAll(opened: Opened, limit: number, display: string): Promise<Buffer> {
  assertFile(opened.stats, display);
  const tooLarge = (size: number) =>
    new FsError(
      `"${display}" is ${formatBytes(size)}, over the ${formatBytes(limit)} read limit; ` +
        `read part of it with "head" or "tail"`,
      "EFBIG",
    );
  if (opened.stats.size > limit) throw tooLarge(opened.stats.size);
  const data = await readAt(opened.handle, 0, limit + 1); // the file may have grown since fstat
  if (data.length > limit) throw tooLarge(data.length);
  return data;
}

const NEWLINE = 0x0a;

/** The first `lines` lines, reading at most `limit` bytes. */
export async function readHead(
  opened: Opened,
  lines: number,
  limit: number,
  display: string,
): Promise<string> {
  assertFile(opened.stats, display);
  const chunks: Buffer[] = [];
  let total = 0;
  let found = 0;
  for (;;) {
    const chunk = await readAt(opened.handle, total, Math.min(CHUNK, limit - total));
    for (let i = 0; i < chunk.length; i++) {
      if (chunk[i] === NEWLINE && ++found === lines) {
        chunks.push(chunk.subarray(0, i));
        return Buffer.concat(chunks).toString("utf8");
      }
    }
    chunks.push(chunk);
    total += chunk.length;
    if (chunk.length === 0 || total >= limit) break;
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (total < limit) return text;
  return `${text}\n[stopped after ${formatBytes(limit)}, the read limit, at line ${found + 1}]`;
}

/** The last `lines` lines, reading at most `limit` bytes from the end. */
export async function readTail(
  opened: Opened,
  lines: number,
  limit: number,
  display: string,
): Promise<string> {
  assertFile(opened.stats, display);
  const size = opened.stats.size;
  let start = size;
  let data = Buffer.alloc(0);
  for (;;) {
    const from = Math.max(0, start - CHUNK, size - limit);
    if (from === start) break;
    data = Buffer.concat([await readAt(opened.handle, from, start - from), data]);
    start = from;
    // Done once the newline before the wanted lines is in (the file's final newline ends the last line).
    const end = data.at(-1) === NEWLINE ? data.length - 1 : data.length;
    let found = 0;
    for (let i = end - 1; i >= 0; i--) {
      if (data[i] === NEWLINE && ++found === lines) return data.subarray(i + 1, end).toString("utf8");
    }
  }
  const end = data.at(-1) === NEWLINE ? data.length - 1 : data.length;
  if (start === 0) return data.subarray(0, end).toString("utf8");
  const firstLine = data.indexOf(NEWLINE);
  return `[started ${formatBytes(limit)} from the end, the read limit]\n${data.subarray(firstLine + 1, end).toString("utf8")}`;
}
