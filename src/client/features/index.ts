export type { ClientEvents } from "./events.js";
export type { ClientExtension, ExtensionRequestHandler } from "./extension.js";
export type {
  ClientFeatures,
  ElicitationHandler,
  RootsHandler,
  SamplingHandler,
  ServerRequestContext,
} from "./features.js";
