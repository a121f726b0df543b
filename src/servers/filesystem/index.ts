export { Roots } from "./paths.js";
export {
  createFilesystemServer,
  createFromArgs,
  FILESYSTEM_USAGE,
  type FilesystemServerOptions,
} from "./server.js";
