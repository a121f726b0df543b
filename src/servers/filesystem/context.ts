import { FsError } from "./errors.js";
import type { Roots } from "./paths.js";
import { openPath, readAll } from "./safe-open.js";

/** What every tool, resource and prompt of one filesystem server shares. */
export interface FsContext {
  roots: Roots;
  /** Largest file read whole, in bytes (and most bytes a `head`/`tail` read looks at). */
  maxFileSize: number;
}

/** Whether bytes look like text: no NUL byte in the first 8 KiB. */
export function looksLikeText(data: Uint8Array): boolean {
  return !data.subarray(0, 8192).includes(0);
}

/** Reads a whole text file inside the roots, safely; refuses binary and over-size files. */
export async function readTextFile(
  fs: FsContext,
  requested: string,
): Promise<{ text: string; real: string }> {
  const opened = await openPath(fs.roots, requested, "read");
  try {
    const data = await readAll(opened, fs.maxFileSize, requested);
    if (!looksLikeText(data)) {
      throw new FsError(`"${requested}" is a binary file, not text; read it as a resource (file://) instead`);
    }
    return { text: data.toString("utf8"), real: opened.real };
  } finally {
    await opened.handle.close();
  }
}
