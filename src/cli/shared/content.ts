/** Human rendering of content blocks and resource contents. */
import type { Annotations } from "../../protocol/types/base.js";
import type { ContentBlock, ResourceContents } from "../../protocol/types/content.js";
import { base64Size, CONTENT_LIMITS, formatSize, truncate } from "./format.js";

const BINARY_NOTE = "data not shown; --json includes it";

function annotationsOf(annotations: Annotations | undefined): string {
  if (!annotations) return "";
  const parts: string[] = [];
  if (annotations.audience?.length) parts.push(`audience: ${annotations.audience.join(", ")}`);
  if (annotations.priority !== undefined) parts.push(`priority: ${annotations.priority}`);
  if (annotations.lastModified) parts.push(`modified: ${annotations.lastModified}`);
  return parts.length > 0 ? ` (${parts.join("; ")})` : "";
}

/** The body of resource contents: the text, or a summary of the bytes. */
function contentsBody(contents: ResourceContents, full: boolean, binaryNote = BINARY_NOTE): string {
  if ("text" in contents && typeof contents.text === "string")
    return truncate(contents.text, CONTENT_LIMITS, full);
  if ("blob" in contents && typeof contents.blob === "string") {
    return `(binary, ${formatSize(base64Size(contents.blob))}; ${binaryNote})`;
  }
  return "(no text or blob)";
}

/**
 * One content block with a `[type]` header line (`prefix` goes first inside the brackets, e.g. the
 * role of a prompt message); text is truncated unless `full`, binary data only summarised.
 */
export function renderBlock(block: ContentBlock, full: boolean, prefix?: string): string {
  const label = (type: string, rest = "") =>
    `[${prefix ? `${prefix}, ` : ""}${type}]${rest}${annotationsOf(block.annotations)}`;
  switch (block.type) {
    case "text":
      return `${label("text")}\n${truncate(block.text, CONTENT_LIMITS, full)}`;
    case "image":
    case "audio":
      return label(block.type, ` ${block.mimeType}, ${formatSize(base64Size(block.data))} (${BINARY_NOTE})`);
    case "resource_link": {
      const details = [
        block.title ?? block.name,
        block.mimeType,
        block.size === undefined ? undefined : formatSize(block.size),
      ].filter(Boolean);
      const description = block.description ? `\n${block.description}` : "";
      return `${label("resource_link", ` ${block.uri}`)}\n${details.join(", ")}${description}`;
    }
    case "resource": {
      const { resource } = block;
      const mime = resource.mimeType ? ` (${resource.mimeType})` : "";
      return `${label("resource", ` ${resource.uri}${mime}`)}\n${contentsBody(resource, full)}`;
    }
    default: {
      const unknown = block as { type?: unknown };
      return `${label(String(unknown.type))}\n${truncate(JSON.stringify(unknown, null, 2), CONTENT_LIMITS, full)}`;
    }
  }
}

/** The contents of `resources/read`, each under a `[mime] uri` header. */
export function renderContents(contents: ResourceContents, full: boolean): string {
  const mime = contents.mimeType ?? ("blob" in contents ? "binary" : "text");
  const note = "--raw writes the bytes, --json gives base64";
  return `[${mime}] ${contents.uri}\n${contentsBody(contents, full, note)}`;
}

/** Pretty JSON, truncated unless `full`. */
export function renderJson(value: unknown, full: boolean): string {
  return truncate(JSON.stringify(value, null, 2), CONTENT_LIMITS, full);
}
