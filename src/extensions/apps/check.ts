import { UiError, type UiResourceMeta, type UiToolMeta } from "./types.js";

const CSP_KEYS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;
const PERMISSIONS = ["camera", "microphone", "geolocation", "clipboardWrite"] as const;
const META_KEYS = ["csp", "permissions", "domain", "prefersBorder"];
/** An origin a CSP source list can carry: scheme, host (a `*.` wildcard first at most), port. */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:[0-9]{1,5})?$/;
/** The most origins per directive: a CSP is built from them on every render. */
const MAX_DOMAINS = 64;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A `ui://` URI, or throws. */
export function checkUiUri(uri: unknown, where: string): string {
  if (typeof uri !== "string" || !/^ui:\/\/[^\s]+$/.test(uri) || uri.length > 2048)
    throw new UiError(`${where}: ${JSON.stringify(uri)} is not a ui:// URI`);
  return uri;
}

/**
 * Checks a `_meta.ui` of a UI resource: known keys only, CSP entries plain origins (no paths,
 * no quotes or `;` that would inject a directive), permissions empty objects. Returns it.
 */
export function checkResourceMeta(meta: unknown, where: string): UiResourceMeta {
  if (!isObject(meta)) throw new UiError(`${where}: _meta.ui is not an object`);
  const unknown = Object.keys(meta).find((key) => !META_KEYS.includes(key));
  if (unknown !== undefined) throw new UiError(`${where}: _meta.ui has no field "${unknown}"`);
  const { csp, permissions, domain, prefersBorder } = meta;
  if (csp !== undefined) {
    if (!isObject(csp)) throw new UiError(`${where}: _meta.ui.csp is not an object`);
    for (const [key, list] of Object.entries(csp)) {
      if (!(CSP_KEYS as readonly string[]).includes(key))
        throw new UiError(`${where}: _meta.ui.csp has no field "${key}"`);
      if (!Array.isArray(list) || list.length > MAX_DOMAINS)
        throw new UiError(`${where}: _meta.ui.csp.${key} is not a list of at most ${MAX_DOMAINS} origins`);
      const bad = list.find((origin) => typeof origin !== "string" || !ORIGIN.test(origin));
      if (bad !== undefined)
        throw new UiError(
          `${where}: _meta.ui.csp.${key} holds ${JSON.stringify(bad)}, which is not an origin`,
        );
    }
  }
  if (permissions !== undefined) {
    if (!isObject(permissions)) throw new UiError(`${where}: _meta.ui.permissions is not an object`);
    for (const [key, value] of Object.entries(permissions)) {
      if (!(PERMISSIONS as readonly string[]).includes(key))
        throw new UiError(`${where}: _meta.ui.permissions has no permission "${key}"`);
      if (!isObject(value) || Object.keys(value).length > 0)
        throw new UiError(`${where}: _meta.ui.permissions.${key} must be {}`);
    }
  }
  if (domain !== undefined && (typeof domain !== "string" || domain === "" || domain.length > 253))
    throw new UiError(`${where}: _meta.ui.domain is not a domain`);
  if (prefersBorder !== undefined && typeof prefersBorder !== "boolean")
    throw new UiError(`${where}: _meta.ui.prefersBorder is not a boolean`);
  return meta as UiResourceMeta;
}

/** Checks a tool's `_meta.ui`: a `ui://` resource URI and a visibility of "model" and/or "app". */
export function checkToolMeta(meta: unknown, where: string): UiToolMeta {
  if (!isObject(meta)) throw new UiError(`${where}: _meta.ui is not an object`);
  const unknown = Object.keys(meta).find((key) => key !== "resourceUri" && key !== "visibility");
  if (unknown !== undefined) throw new UiError(`${where}: a tool's _meta.ui has no field "${unknown}"`);
  checkUiUri(meta.resourceUri, `${where}: _meta.ui.resourceUri`);
  const { visibility } = meta;
  if (visibility !== undefined) {
    if (
      !Array.isArray(visibility) ||
      visibility.length === 0 ||
      visibility.length > 2 ||
      new Set(visibility).size !== visibility.length ||
      !visibility.every((v) => v === "model" || v === "app")
    )
      throw new UiError(`${where}: _meta.ui.visibility must hold "model", "app" or both, once each`);
  }
  return meta as unknown as UiToolMeta;
}
