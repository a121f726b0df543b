import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { Resource } from "../../protocol/types/resources.js";
import type { McpServer } from "../../server/server.js";
import { type FsContext, looksLikeText } from "./context.js";
import { describeError } from "./errors.js";
import { listDirectory, openPath, readAll } from "./safe-open.js";

/** The template of file resources: one variable, the absolute path (reserved expansion keeps its slashes). */
const FILE_TEMPLATE = "file:///{+path}";

/** Most files `resources/list` names (breadth-first from the roots). */
const MAX_LISTED_FILES = 200;
/** Directories `resources/list` does not descend into. */
const NOT_LISTED = new Set(["node_modules", ".git"]);

const MIME_TYPES: Record<string, string> = {
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".json": "application/json",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".cjs": "text/javascript",
  ".ts": "text/x-typescript",
  ".html": "text/html",
  ".htm": "text/html",
  ".css": "text/css",
  ".csv": "text/csv",
  ".xml": "application/xml",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".toml": "application/toml",
  ".py": "text/x-python",
  ".sh": "application/x-sh",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".pdf": "application/pdf",
  ".zip": "application/zip",
  ".wasm": "application/wasm",
};

/** A file's MIME type, by its extension; `undefined` when unknown. */
function mimeTypeOf(file: string): string | undefined {
  return MIME_TYPES[path.extname(file).toLowerCase()];
}

/** The `file://` URI of an absolute path. */
function fileUri(file: string): string {
  return pathToFileURL(file).href;
}

/** A resource read error: a missing file is -32002, anything else (refused, a directory, too large) -32602. */
function readFailure(error: unknown, uri: string): McpError {
  const failure = describeError(error, uri, "read");
  const code = failure.code === "ENOENT" ? ErrorCode.ResourceNotFound : ErrorCode.InvalidParams;
  return new McpError(code, failure.message, { uri });
}

/**
 * Registers the files inside the roots as resources: the template `file:///{+path}` reads any of
 * them (text as `text`, anything else as a base64 `blob`), through the same checks as the tools;
 * `resources/list` names the first files found breadth-first.
 */
export function registerFileResources(server: McpServer, fs: FsContext): void {
  server.resourceTemplate(
    FILE_TEMPLATE,
    {
      name: "file",
      title: "Files in the allowed directories",
      description: "Any file inside the allowed directories, by its absolute path as a file:// URI",
    },
    async (uri) => {
      try {
        let file: string;
        try {
          file = fileURLToPath(uri);
        } catch {
          throw new McpError(ErrorCode.InvalidParams, `Not a usable file URI: ${uri}`, { uri });
        }
        const opened = await openPath(fs.roots, file, "read");
        try {
          const data = await readAll(opened, fs.maxFileSize, file);
          const mimeType = mimeTypeOf(opened.real);
          const textual =
            mimeType === undefined || !/^image\/(?!svg)|^application\/(pdf|zip|wasm)/.test(mimeType);
          if (textual && looksLikeText(data)) {
            return { uri, mimeType: mimeType ?? "text/plain", text: data.toString("utf8") };
          }
          return { uri, mimeType: mimeType ?? "application/octet-stream", blob: data.toString("base64") };
        } finally {
          await opened.handle.close();
        }
      } catch (error) {
        throw error instanceof McpError ? error : readFailure(error, uri);
      }
    },
    { list: () => listFiles(fs) },
  );
}

/** The first regular files of the roots, breadth-first, skipping node_modules and .git; unreadable directories are skipped. */
async function listFiles(fs: FsContext): Promise<Resource[]> {
  const found: Resource[] = [];
  const seen = new Set<string>(); // a root may lie inside another
  const queue = fs.roots.dirs.map((dir) => ({ dir, root: dir }));
  while (queue.length > 0 && found.length < MAX_LISTED_FILES) {
    const { dir, root } = queue.shift()!;
    if (seen.has(dir)) continue;
    seen.add(dir);
    const entries = await listDirectory(fs.roots, dir, dir).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && !NOT_LISTED.has(entry.name)) queue.push({ dir: full, root });
      if (!entry.isFile() || found.length >= MAX_LISTED_FILES) continue;
      const resource: Resource = {
        uri: fileUri(full),
        name: path.relative(root, full).split(path.sep).join("/"),
      };
      const mimeType = mimeTypeOf(full);
      if (mimeType) resource.mimeType = mimeType;
      found.push(resource);
    }
  }
  return found;
}
