import path from "node:path";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { text } from "../../protocol/features/content.js";
import type { McpServer } from "../../server/server.js";
import { type FsContext, readTextFile } from "./context.js";
import { describeError, FsError } from "./errors.js";
import { listDirectory } from "./safe-open.js";

const README_NAMES = ["README.md", "README", "README.txt", "README.rst", "readme.md", "Readme.md"];
/** Most of the README put in the prompt. */
const MAX_README_CHARS = 20_000;
const TREE_DEPTH = 3;
const TREE_ENTRIES = 200;
/** Directories shown in the tree but not expanded. */
const NOT_EXPANDED = new Set(["node_modules", ".git", "dist", "build", "target", ".venv", "__pycache__"]);

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The tree of a directory (real path), directories first, bounded in depth and entries. */
async function tree(fs: FsContext, root: string): Promise<string> {
  const lines: string[] = [`${path.basename(root) || root}/`];
  let budget = TREE_ENTRIES;
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await listDirectory(fs.roots, dir, dir).catch(() => undefined);
    if (!entries) {
      lines.push(`${"  ".repeat(depth)}(unreadable)`);
      return;
    }
    const dirs = entries.filter((e) => e.isDirectory()).sort(byName);
    const others = entries.filter((e) => !e.isDirectory()).sort(byName);
    for (const entry of [...dirs, ...others]) {
      if (budget-- <= 0) {
        lines.push(`${"  ".repeat(depth)}… (tree cut at ${TREE_ENTRIES} entries)`);
        return;
      }
      const indent = "  ".repeat(depth);
      if (!entry.isDirectory()) {
        lines.push(`${indent}${entry.name}${entry.isSymbolicLink() ? " (link)" : ""}`);
        continue;
      }
      const expand = depth < TREE_DEPTH && !NOT_EXPANDED.has(entry.name);
      lines.push(`${indent}${entry.name}/${expand ? "" : " …"}`);
      if (expand) await walk(path.join(dir, entry.name), depth + 1);
      if (budget <= 0) return;
    }
  };
  await walk(root, 1);
  return lines.join("\n");
}

/** The README of a directory (real path), cut to MAX_README_CHARS; `undefined` if it has none. */
async function readme(fs: FsContext, dir: string): Promise<{ name: string; text: string } | undefined> {
  const names = new Set(
    (await listDirectory(fs.roots, dir, dir))
      .filter((e) => e.isFile() || e.isSymbolicLink())
      .map((e) => e.name),
  );
  const name = README_NAMES.find((candidate) => names.has(candidate));
  if (!name) return undefined;
  try {
    const { text: content } = await readTextFile(fs, path.join(dir, name));
    const cut = content.length > MAX_README_CHARS;
    return {
      name,
      text: cut
        ? `${content.slice(0, MAX_README_CHARS)}\n… (cut at ${MAX_README_CHARS} characters)`
        : content,
    };
  } catch (error) {
    return { name, text: `(could not be read: ${(error as Error).message})` };
  }
}

/** Directory completions: the roots, then the subdirectories of what is typed so far. */
async function completeDirectory(fs: FsContext, typed: string): Promise<string[]> {
  const fromRoots = fs.roots.dirs.filter((dir) => dir.startsWith(typed));
  const parent = typed.endsWith(path.sep) ? typed : path.dirname(typed);
  try {
    const real = await fs.roots.existing(parent || ".", "list");
    const entries = await listDirectory(fs.roots, real, parent);
    const subdirs = entries.filter((e) => e.isDirectory()).map((e) => path.join(parent, e.name));
    return [...new Set([...fromRoots, ...subdirs.filter((dir) => dir.startsWith(typed)).sort()])];
  } catch {
    return fromRoots;
  }
}

/** Registers `summarise_project`: a prompt asking to summarise a directory from its README and its tree. */
export function registerSummarisePrompt(server: McpServer, fs: FsContext): void {
  server.prompt(
    "summarise_project",
    {
      title: "Summarise a project",
      description: "Summarise the project in a directory from its README and its file tree",
      arguments: {
        directory: {
          description: "The project's directory (inside the allowed directories)",
          required: true,
          complete: (typed) => completeDirectory(fs, typed),
        },
      },
    },
    async ({ directory }) => {
      const requested = String(directory);
      try {
        const real = await fs.roots.existing(requested, "summarise");
        const found = await readme(fs, real);
        const files = await tree(fs, real);
        const about = found
          ? `## ${found.name}\n\n${found.text}`
          : "## README\n\n(There is no README; go by the tree and the names.)";
        return [
          {
            role: "user",
            content: text(
              `Summarise the project in ${real}: what it is for, how it is organised, and how to build, ` +
                `run and use it. Be concise: a short paragraph, then the main parts as a list.\n\n` +
                `${about}\n\n## File tree (depth ${TREE_DEPTH}, at most ${TREE_ENTRIES} entries)\n\n${files}`,
            ),
          },
        ];
      } catch (error) {
        const failure = error instanceof FsError ? error : describeError(error, requested, "summarise");
        throw new McpError(ErrorCode.InvalidParams, failure.message, { directory: requested });
      }
    },
  );
}
