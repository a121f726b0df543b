import type { Stats } from "node:fs";
import type { McpServer } from "../../server/server.js";
import { type FsContext, looksLikeText } from "./context.js";
import { FsError, formatBytes } from "./errors.js";
import { listDirectory, openPath, readAll, readHead, readTail } from "./safe-open.js";
import { searchTree } from "./search.js";

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const PATH = {
  type: "string",
  description: "A path inside an allowed directory (relative paths start at the first one)",
};

/** Most entries `list_directory` shows, and most entries `search_files` looks at. */
const MAX_LISTED = 10_000;
const MAX_VISITED = 100_000;

/** Registers the tools that only read: read_file, list_directory, search_files, get_file_info, list_allowed_directories. */
export function registerReadTools(server: McpServer, fs: FsContext): void {
  const { roots } = fs;
  server
    .tool(
      "read_file",
      {
        title: "Read File",
        description:
          `Read a text file inside the allowed directories. "head": N returns only the first N lines, "tail": N ` +
          `only the last N (use them for large files). Files over ${formatBytes(fs.maxFileSize)} are refused whole.`,
        input: {
          type: "object",
          properties: {
            path: PATH,
            head: { type: "integer", minimum: 1, description: "Return only the first N lines" },
            tail: { type: "integer", minimum: 1, description: "Return only the last N lines" },
          },
          required: ["path"],
          additionalProperties: false,
        },
        annotations: { title: "Read File", ...READ_ONLY },
      },
      async ({ path, head, tail }) => {
        if (head !== undefined && tail !== undefined) {
          throw new FsError(`Cannot read "${path}": give "head" or "tail", not both`);
        }
        const opened = await openPath(roots, path, "read");
        try {
          if (head !== undefined) return await readHead(opened, head, fs.maxFileSize, path);
          if (tail !== undefined) return await readTail(opened, tail, fs.maxFileSize, path);
          const data = await readAll(opened, fs.maxFileSize, path);
          if (!looksLikeText(data)) {
            throw new FsError(
              `"${path}" is a binary file, not text; read it as a resource (file://) instead`,
            );
          }
          return data.toString("utf8");
        } finally {
          await opened.handle.close();
        }
      },
    )
    .tool(
      "list_directory",
      {
        title: "List Directory",
        description:
          "List a directory inside the allowed directories: one entry a line, marked [DIR], [FILE], [LINK] or [OTHER].",
        input: {
          type: "object",
          properties: { path: PATH },
          required: ["path"],
          additionalProperties: false,
        },
        annotations: { title: "List Directory", ...READ_ONLY },
      },
      async ({ path }) => {
        const real = await roots.existing(path, "list");
        const entries = await listDirectory(roots, real, path);
        if (entries.length === 0) return `${real} is empty.`;
        const lines = entries
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
          .map((entry) => {
            const kind = entry.isDirectory()
              ? "[DIR]"
              : entry.isFile()
                ? "[FILE]"
                : entry.isSymbolicLink()
                  ? "[LINK]"
                  : "[OTHER]";
            return `${kind} ${entry.name}`;
          });
        const shown = lines.slice(0, MAX_LISTED);
        if (lines.length > MAX_LISTED) shown.push(`… and ${lines.length - MAX_LISTED} more entries`);
        return shown.join("\n");
      },
    )
    .tool(
      "search_files",
      {
        title: "Search Files",
        description:
          "Find files and directories under a directory, recursively, by a glob pattern: `*.ts` matches names at " +
          "any depth, `src/**/*.test.ts` matches paths relative to the directory, `{a,b}`, `?` and `[abc]` work, " +
          "and a pattern without wildcards matches names containing it. Case-insensitive; symbolic links are not " +
          "followed; results are bounded by maxResults.",
        input: {
          type: "object",
          properties: {
            path: { ...PATH, description: "The directory to search in" },
            pattern: { type: "string", minLength: 1, maxLength: 500, description: "A glob pattern" },
            excludePatterns: {
              type: "array",
              items: { type: "string", minLength: 1, maxLength: 500 },
              maxItems: 100,
              description: "Glob patterns of entries to skip (and not descend into), e.g. node_modules",
            },
            maxResults: {
              type: "integer",
              minimum: 1,
              maximum: 1000,
              default: 100,
              description: "At most this many results (default 100)",
            },
          },
          required: ["path", "pattern"],
          additionalProperties: false,
        },
        annotations: { title: "Search Files", ...READ_ONLY },
      },
      async ({ path, pattern, excludePatterns, maxResults }) => {
        const start = await roots.existing(path, "search");
        const result = await searchTree(roots, start, path, {
          pattern,
          exclude: excludePatterns,
          maxResults: maxResults ?? 100,
          maxVisited: MAX_VISITED,
        });
        const lines =
          result.matches.length > 0 ? [...result.matches] : [`No matches for "${pattern}" in ${start}.`];
        if (result.stopped) lines.push(`[search stopped early: ${result.stopped}]`);
        if (result.skipped > 0) lines.push(`[${result.skipped} directories could not be read]`);
        return lines.join("\n");
      },
    )
    .tool(
      "get_file_info",
      {
        title: "Get File Info",
        description: "Metadata of a file or directory: type, size, times, permissions.",
        input: {
          type: "object",
          properties: { path: PATH },
          required: ["path"],
          additionalProperties: false,
        },
        annotations: { title: "Get File Info", ...READ_ONLY },
      },
      async ({ path }) => {
        const opened = await openPath(roots, path, "inspect");
        try {
          return describeStats(opened.real, opened.stats);
        } finally {
          await opened.handle.close();
        }
      },
    )
    .tool(
      "list_allowed_directories",
      {
        title: "List Allowed Directories",
        description: "The directories this server may access (every path must be inside one of them).",
        input: { type: "object", properties: {}, additionalProperties: false },
        annotations: { title: "List Allowed Directories", ...READ_ONLY },
      },
      () => `Allowed directories:\n${roots.dirs.join("\n")}`,
    );
}

function describeStats(real: string, stats: Stats): string {
  const type = stats.isDirectory() ? "directory" : stats.isFile() ? "file" : "other";
  return [
    `path: ${real}`,
    `type: ${type}`,
    `size: ${stats.size} bytes (${formatBytes(stats.size)})`,
    `created: ${stats.birthtime.toISOString()}`,
    `modified: ${stats.mtime.toISOString()}`,
    `accessed: ${stats.atime.toISOString()}`,
    `permissions: ${(stats.mode & 0o777).toString(8).padStart(3, "0")}`,
  ].join("\n");
}
