export { checkResourceMeta, checkToolMeta } from "./check.js";
export {
  isAppCallable,
  isModelVisible,
  type ReadUiResourceOptions,
  readUiResource,
  type UiResource,
  uiResourceOf,
} from "./client.js";
export { apps, appsClient, clientRendersApps } from "./extension.js";
export { registerUiResource, type UiResourceConfig, uiTool, uiToolMeta } from "./server.js";
export {
  LEGACY_RESOURCE_URI_KEY,
  UI_EXTENSION,
  UI_MIME_TYPE,
  UiError,
  type UiResourceCsp,
  type UiResourceMeta,
  type UiResourcePermissions,
  type UiToolMeta,
  type UiToolVisibility,
} from "./types.js";
