import type { McpServer } from "../../server/server.js";
import { type FsContext, readTextFile } from "./context.js";
import { applyEdits, type TextEdit, unifiedDiff } from "./edit.js";
import { formatBytes } from "./errors.js";
import { assertWritable, moveSafely, writeFileSafely } from "./safe-write.js";

const PATH = {
  type: "string",
  description: "A path inside an allowed directory (relative paths start at the first one)",
};

/** Registers the tools that change files: write_file, edit_file, move_file. */
export function registerWriteTools(server: McpServer, fs: FsContext): void {
  const { roots } = fs;
  server
    .tool(
      "write_file",
      {
        title: "Write File",
        description:
          "Create a file, or replace a file's whole content, inside the allowed directories. The write is atomic " +
          "(a temporary file renamed into place); its directory must exist; a symbolic link is never written through.",
        input: {
          type: "object",
          properties: {
            path: PATH,
            content: { type: "string", description: "The complete new content (UTF-8 text)" },
          },
          required: ["path", "content"],
          additionalProperties: false,
        },
        annotations: {
          title: "Write File",
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
      async ({ path, content }) => {
        const written = await writeFileSafely(roots, path, content);
        const bytes = formatBytes(Buffer.byteLength(content));
        return `${written.created ? "Created" : "Replaced"} ${written.path} (${bytes}).`;
      },
    )
    .tool(
      "edit_file",
      {
        title: "Edit File",
        description:
          "Edit a text file by exact-text replacements, applied in order: each oldText must occur exactly once " +
          "(whitespace included). Returns a unified diff; with dryRun: true only shows it. Either every edit " +
          "applies or nothing changes.",
        input: {
          type: "object",
          properties: {
            path: PATH,
            edits: {
              type: "array",
              minItems: 1,
              maxItems: 1000,
              items: {
                type: "object",
                properties: {
                  oldText: {
                    type: "string",
                    minLength: 1,
                    description: "Text to find: must occur exactly once",
                  },
                  newText: { type: "string", description: "Text to put in its place" },
                },
                required: ["oldText", "newText"],
                additionalProperties: false,
              },
            },
            dryRun: { type: "boolean", default: false, description: "Show the diff without writing" },
          },
          required: ["path", "edits"],
          additionalProperties: false,
        },
        annotations: {
          title: "Edit File",
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: false,
          openWorldHint: false,
        },
      },
      async ({ path, edits, dryRun }) => {
        await assertWritable(roots, path, "edit");
        const { text, real } = await readTextFile(fs, path);
        const edited = applyEdits(text, edits as TextEdit[], path);
        const diff = unifiedDiff(text, edited, real);
        if (dryRun === true) return `Dry run: nothing was written.\n${diff}`;
        if (edited !== text) await writeFileSafely(roots, path, edited);
        const count = edits.length === 1 ? "1 edit" : `${edits.length} edits`;
        return `Applied ${count} to ${real}.\n${diff}`;
      },
    )
    .tool(
      "move_file",
      {
        title: "Move File",
        description:
          "Move or rename a file or directory within the allowed directories. Fails if the destination exists " +
          "(nothing is overwritten) or its directory does not.",
        input: {
          type: "object",
          properties: {
            source: { ...PATH, description: "What to move" },
            destination: { ...PATH, description: "Its new path (must not exist yet)" },
          },
          required: ["source", "destination"],
          additionalProperties: false,
        },
        annotations: {
          title: "Move File",
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: false,
          openWorldHint: false,
        },
      },
      async ({ source, destination }) => {
        const moved = await moveSafely(roots, source, destination);
        return `Moved ${moved.from} to ${moved.to}.`;
      },
    );
}
