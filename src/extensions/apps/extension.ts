import type { ClientExtension } from "../../client/features/extension.js";
import type { ServerExtension } from "../../server/dispatch/extension.js";
import type { RequestContext } from "../../server/sessions/context.js";
import { UI_EXTENSION, UI_MIME_TYPE } from "./types.js";

/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`, SEP-1865) for `McpServer`: declares
 * `capabilities.extensions["io.modelcontextprotocol/ui"]`. The extension adds no method: views are
 * resources (`registerUiResource`) linked from tools (`uiTool`).
 */
export function apps(): ServerExtension {
  return { id: UI_EXTENSION };
}

/**
 * A host's declaration of MCP Apps, for `McpClient.connect({ extensions })`: the view MIME types
 * it renders (default `text/html;profile=mcp-app`).
 */
export function appsClient({ mimeTypes = [UI_MIME_TYPE] }: { mimeTypes?: string[] } = {}): ClientExtension {
  return { id: UI_EXTENSION, settings: { mimeTypes: [...mimeTypes] } };
}

/**
 * Whether the client of a request renders MCP Apps views (it declared the extension with
 * `text/html;profile=mcp-app`): a handler can answer a client that does not with text alone.
 */
export function clientRendersApps(ctx: RequestContext): boolean {
  const settings = ctx.clientCapabilities.extensions?.[UI_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(settings?.mimeTypes) && settings.mimeTypes.includes(UI_MIME_TYPE);
}
