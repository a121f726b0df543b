import { McpServer } from "../../server/server.js";
import type { FsContext } from "./context.js";
import { Roots } from "./paths.js";
import { registerSummarisePrompt } from "./prompt.js";
import { registerFileResources } from "./resources.js";
import { registerReadTools } from "./tools-read.js";
import { registerWriteTools } from "./tools-write.js";

export interface FilesystemServerOptions {
  /** The directories the server may access (resolved to their real paths when the server is created). */
  roots: string[];
  /** Register no tool that changes the file system (no write_file, edit_file or move_file). */
  readOnly?: boolean;
  /** Largest file read whole, in bytes; also most bytes a head/tail read looks at. Default 1 MiB. */
  maxFileSize?: number;
}

/** Default `maxFileSize`: 1 MiB. */
const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;

/**
 * The filesystem server: tools to read, write, edit, list, search, move and inspect files, files as
 * `file://` resources, and a prompt that summarises a project, all confined to the given directories.
 *
 * Every path goes through one check (`Roots`, in `paths.ts`): `..` escapes, absolute paths elsewhere,
 * sibling-prefix names and symbolic links leading outside are refused; what is opened is re-checked
 * after opening (`safe-open.ts`) and writes go through a verified temporary file renamed into place
 * (`safe-write.ts`). Failures are `isError` results naming the path. Throws if a root does not exist
 * or is not a directory.
 */
export function createFilesystemServer(options: FilesystemServerOptions): McpServer {
  const roots = Roots.resolve(options.roots);
  const fs: FsContext = { roots, maxFileSize: options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE };
  const readOnly = options.readOnly === true;
  const server = new McpServer({
    name: "mcpkit-filesystem",
    version: "1.0.0",
    title: "mcpkit filesystem server",
    instructions:
      `Reads${readOnly ? "" : ", writes"} and searches files, only inside these directories: ${roots.list()}. ` +
      "Use absolute paths inside them (relative paths start at the first one); call list_allowed_directories to see them." +
      (readOnly ? " This server is read-only." : ""),
  });
  registerReadTools(server, fs);
  if (!readOnly) registerWriteTools(server, fs);
  registerFileResources(server, fs);
  registerSummarisePrompt(server, fs);
  return server;
}

/** Usage of the filesystem server's command-line arguments. */
export const FILESYSTEM_USAGE = "filesystem <dir…> [--read-only] [--max-file-size <bytes>]";

/**
 * Creates the server from command-line arguments: directories, `--read-only` (or `--readonly`),
 * `--max-file-size <bytes>`; `--` ends the options. Throws an `Error` with the usage when they are wrong.
 */
export function createFromArgs(args: readonly string[]): McpServer {
  const roots: string[] = [];
  let readOnly = false;
  let maxFileSize: number | undefined;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (options && arg === "--") options = false;
    else if (options && (arg === "--read-only" || arg === "--readonly")) readOnly = true;
    else if (options && (arg === "--max-file-size" || arg.startsWith("--max-file-size="))) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[++i];
      maxFileSize = Number(value);
      if (!Number.isSafeInteger(maxFileSize) || maxFileSize < 1) {
        throw new Error(
          `--max-file-size needs a positive number of bytes, not ${JSON.stringify(value ?? "")}`,
        );
      }
    } else if (options && arg.startsWith("-") && arg !== "-") {
      throw new Error(`unknown option ${arg} (usage: ${FILESYSTEM_USAGE})`);
    } else roots.push(arg);
  }
  if (roots.length === 0)
    throw new Error(`give at least one directory to allow (usage: ${FILESYSTEM_USAGE})`);
  return createFilesystemServer({ roots, readOnly, maxFileSize });
}
