/** The extension's identifier, the key of its entry in `capabilities.extensions`. */
export const UI_EXTENSION = "io.modelcontextprotocol/ui";
/** The MIME type of an MCP App's HTML. */
export const UI_MIME_TYPE = "text/html;profile=mcp-app";
/** The flat `_meta` key older hosts read a tool's UI resource from (deprecated by `_meta.ui.resourceUri`). */
export const LEGACY_RESOURCE_URI_KEY = "ui/resourceUri";

/** Origins a UI may reach, by CSP directive: all empty or absent is none. */
export interface UiResourceCsp {
  /** `connect-src`: fetch, XHR and WebSocket origins. */
  connectDomains?: string[];
  /** `img-src`, `script-src`, `style-src`, `font-src`, `media-src` origins (`https://*.example.com` allowed). */
  resourceDomains?: string[];
  /** `frame-src`: origins of nested frames. */
  frameDomains?: string[];
  /** `base-uri`: allowed base URIs of the document. */
  baseUriDomains?: string[];
}

/** Browser capabilities a UI asks the host for; a host may refuse them. */
export interface UiResourcePermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** A UI resource's `_meta.ui`: what it may load and reach, and how it is shown. */
export interface UiResourceMeta {
  csp?: UiResourceCsp;
  permissions?: UiResourcePermissions;
  /** A dedicated sandbox origin, in the host's own format. */
  domain?: string;
  /** Whether the host draws a border and background around it. */
  prefersBorder?: boolean;
}

/** Who may call a tool: the model, the app, or both (the default). */
export type UiToolVisibility = "model" | "app";

/** A tool's `_meta.ui`: the UI resource its results are shown in, and who may call it. */
export interface UiToolMeta {
  resourceUri: string;
  visibility?: UiToolVisibility[];
}

/** A UI resource or tool link that is not what the extension allows. */
export class UiError extends Error {
  override name = "UiError";
}
