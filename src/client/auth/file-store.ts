import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { StoredAuthorization, TokenStore } from "./store.js";

/** `$XDG_CONFIG_HOME/mcpkit/oauth` (or `~/.config/…`; `%APPDATA%\mcpkit\oauth` on Windows). */
export function defaultOAuthDirectory(): string {
  const base =
    process.platform === "win32"
      ? (process.env.APPDATA ?? join(homedir(), "AppData", "Roaming"))
      : (process.env.XDG_CONFIG_HOME ?? join(homedir(), ".config"));
  return join(base, "mcpkit", "oauth");
}

/**
 * Keeps each server's tokens and registration in its own JSON file, readable by the user alone
 * (mode 0600, in a directory of mode 0700), written atomically.
 */
export class FileTokenStore implements TokenStore {
  /** The directory the files are in. */
  readonly directory: string;

  constructor(directory: string = defaultOAuthDirectory()) {
    this.directory = directory;
  }

  /** The file that holds what is kept for `key` (a server URL). */
  fileOf(key: string): string {
    return join(this.directory, `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.json`);
  }

  async get(key: string): Promise<StoredAuthorization | undefined> {
    let text: string;
    try {
      text = await readFile(this.fileOf(key), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    try {
      const entry = JSON.parse(text) as { key?: unknown; value?: StoredAuthorization };
      return entry.key === key ? entry.value : undefined;
    } catch {
      // A damaged file is as good as none: the next authorization replaces it.
      return undefined;
    }
  }

  async set(key: string, value: StoredAuthorization): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const file = this.fileOf(key);
    const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    await writeFile(temporary, JSON.stringify({ key, value }), { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, file);
  }

  async delete(key: string): Promise<void> {
    await rm(this.fileOf(key), { force: true });
  }
}
