import type { McpClient } from "../../client/client.js";
import type { RequestOptions } from "../../protocol/engine/peer.js";
import type { ResourceContents } from "../../protocol/types/content.js";
import type { Tool } from "../../protocol/types/tools.js";
import { checkResourceMeta, checkToolMeta, checkUiUri } from "./check.js";
import {
  LEGACY_RESOURCE_URI_KEY,
  UI_MIME_TYPE,
  UiError,
  type UiResourceMeta,
  type UiToolMeta,
} from "./types.js";

/**
 * A tool's link to its UI, checked: `_meta.ui` (or, from older servers, the flat
 * `_meta["ui/resourceUri"]`), or `undefined` if the tool has none. A malformed link is a `UiError`.
 */
export function uiResourceOf(tool: Pick<Tool, "name" | "_meta">): UiToolMeta | undefined {
  const meta = tool._meta as Record<string, unknown> | undefined;
  const where = `tool ${tool.name}`;
  if (meta?.ui !== undefined) {
    const ui = meta.ui as Record<string, unknown>;
    // A `_meta.ui` with only a visibility still takes its URI from the flat key.
    if (
      ui &&
      typeof ui === "object" &&
      ui.resourceUri === undefined &&
      meta[LEGACY_RESOURCE_URI_KEY] !== undefined
    )
      return checkToolMeta({ ...ui, resourceUri: meta[LEGACY_RESOURCE_URI_KEY] }, where);
    if (ui && typeof ui === "object" && ui.resourceUri === undefined) return undefined;
    return checkToolMeta(ui, where);
  }
  if (meta?.[LEGACY_RESOURCE_URI_KEY] !== undefined)
    return { resourceUri: checkUiUri(meta[LEGACY_RESOURCE_URI_KEY], `${where}: _meta["ui/resourceUri"]`) };
  return undefined;
}

/** Whether the model may see and call a tool: its visibility includes "model" (the default). */
export function isModelVisible(tool: Pick<Tool, "name" | "_meta">): boolean {
  return uiResourceOf(tool)?.visibility?.includes("model") ?? true;
}

/** Whether an app may call a tool: its visibility includes "app" (the default). */
export function isAppCallable(tool: Pick<Tool, "name" | "_meta">): boolean {
  return uiResourceOf(tool)?.visibility?.includes("app") ?? true;
}

/** A UI resource as a host renders it: its HTML and its `_meta.ui`. */
export interface UiResource {
  uri: string;
  mimeType: typeof UI_MIME_TYPE;
  html: string;
  /** The content's `_meta.ui`, or else the one its `resources/list` entry carries. */
  ui: UiResourceMeta;
}

/** Options of `readUiResource`. */
export interface ReadUiResourceOptions extends RequestOptions {
  /** The largest HTML accepted, in bytes. Default 5 MiB. */
  maxBytes?: number;
  /** The resource's `resources/list` entry, if the host has it: its `_meta.ui` is the fallback. */
  listed?: { _meta?: Record<string, unknown> };
}

/**
 * Reads the UI resource of a tool (or a `ui://` URI) with `resources/read` and checks it: MIME
 * type `text/html;profile=mcp-app`, HTML as text or base64 within `maxBytes`, `_meta.ui` as the
 * extension defines it. Throws a `UiError` when the tool has no UI or the server's answer is not one.
 */
export async function readUiResource(
  client: McpClient,
  toolOrUri: Pick<Tool, "name" | "_meta"> | string,
  options: ReadUiResourceOptions = {},
): Promise<UiResource> {
  const uri =
    typeof toolOrUri === "string"
      ? checkUiUri(toolOrUri, "UI resource")
      : uiResourceOf(toolOrUri)?.resourceUri;
  if (uri === undefined) throw new UiError(`tool ${(toolOrUri as Tool).name} has no UI resource`);
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const result = await client.readResource(uri, options);
  const contents = (result.contents ?? []) as ResourceContents[];
  const content = contents.find((c) => c.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!content) throw new UiError(`${uri}: the server's answer holds no contents for it`);
  if (content.mimeType !== UI_MIME_TYPE)
    throw new UiError(`${uri}: its MIME type is ${JSON.stringify(content.mimeType)}, not ${UI_MIME_TYPE}`);
  let html: string;
  if ("text" in content && typeof content.text === "string") html = content.text;
  else if (
    "blob" in content &&
    typeof content.blob === "string" &&
    /^[A-Za-z0-9+/]*={0,2}$/.test(content.blob)
  ) {
    if ((content.blob.length / 4) * 3 > maxBytes + 3)
      throw new UiError(`${uri}: larger than ${maxBytes} bytes`);
    html = Buffer.from(content.blob, "base64").toString("utf8");
  } else throw new UiError(`${uri}: its contents are neither text nor a base64 blob`);
  if (Buffer.byteLength(html) > maxBytes) throw new UiError(`${uri}: larger than ${maxBytes} bytes`);
  const own = content._meta?.ui;
  const fallback = options.listed?._meta?.ui;
  const ui =
    own !== undefined
      ? checkResourceMeta(own, uri)
      : fallback !== undefined
        ? checkResourceMeta(fallback, uri)
        : {};
  return { uri, mimeType: UI_MIME_TYPE, html, ui };
}
