import type { SchemaLike } from "../../protocol/schema/validator.js";
import type { ResourceOptions } from "../../server/registries/resources.js";
import type { ToolConfig } from "../../server/registries/tool-config.js";
import type { McpServer } from "../../server/server.js";
import { checkResourceMeta, checkToolMeta, checkUiUri } from "./check.js";
import { LEGACY_RESOURCE_URI_KEY, UI_MIME_TYPE, type UiResourceMeta, type UiToolMeta } from "./types.js";

/** A UI resource: its HTML (or how to make it on each read), how it is listed, and its `_meta.ui`. */
export interface UiResourceConfig extends ResourceOptions {
  name: string;
  title?: string;
  description?: string;
  /** The HTML5 document, or a function giving it on each read. */
  html: string | (() => string | Promise<string>);
  /** CSP origins, permissions, domain and border preference; on the listing and on every read. */
  ui?: UiResourceMeta;
}

/**
 * Registers an MCP App's UI: a `ui://` resource of MIME type `text/html;profile=mcp-app`, its
 * `_meta.ui` (checked now: plain origins, known permissions) on both its `resources/list` entry
 * and each read's content. Throws a `UiError` for a URI or `_meta.ui` the extension does not allow.
 */
export function registerUiResource(server: McpServer, uri: string, config: UiResourceConfig): McpServer {
  checkUiUri(uri, "UI resource");
  const { name, title, description, html, ui, ...options } = config;
  const meta = ui === undefined ? undefined : checkResourceMeta(ui, uri);
  const _meta = meta === undefined ? undefined : { ui: meta };
  return server.resource(
    uri,
    {
      name,
      mimeType: UI_MIME_TYPE,
      ...(title === undefined ? {} : { title }),
      ...(description === undefined ? {} : { description }),
      ...(_meta === undefined ? {} : { _meta }),
    },
    async () => {
      const text = typeof html === "string" ? html : await html();
      return { uri, mimeType: UI_MIME_TYPE, text, ...(_meta === undefined ? {} : { _meta }) };
    },
    options,
  );
}

/**
 * The `_meta` that links a tool to its UI: `_meta.ui` (`resourceUri`, `visibility`), and the flat
 * `ui/resourceUri` key older hosts read. Merge it into a tool's `_meta`, or use `uiTool`.
 */
export function uiToolMeta(ui: UiToolMeta): { ui: UiToolMeta; [LEGACY_RESOURCE_URI_KEY]: string } {
  const checked = checkToolMeta(ui, "UI tool");
  return { ui: { ...checked }, [LEGACY_RESOURCE_URI_KEY]: checked.resourceUri };
}

/**
 * A tool's config with its UI linked: `config._meta` gains `uiToolMeta(ui)`. Hosts without MCP
 * Apps see an ordinary tool, so its results should still carry meaningful content.
 *
 * @example
 * server.tool("weather", uiTool({ description: "Forecast" }, { resourceUri: "ui://weather/view" }), () => "Sunny");
 */
export function uiTool<
  I extends SchemaLike | undefined = undefined,
  O extends SchemaLike | undefined = undefined,
>(config: ToolConfig<I, O>, ui: UiToolMeta): ToolConfig<I, O> {
  return { ...config, _meta: { ...config._meta, ...uiToolMeta(ui) } };
}
