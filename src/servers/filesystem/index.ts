export { FsError } from "./errors.js";
export { isInside, Roots } from "./paths.js";
export { FILE_TEMPLATE, fileUri } from "./resources.js";
export {
  createFilesystemServer,
  createFromArgs,
  DEFAULT_MAX_FILE_SIZE,
  FILESYSTEM_USAGE,
  type FilesystemServerOptions,
} from "./server.js";
export { WRITE_TOOLS } from "./tools-write.js";
