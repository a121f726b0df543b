/** Human rendering of content blocks and resource contents; everything the server chose is inert. */
import type { Annotations } from "../../protocol/types/base.js";
import type { ContentBlock, ResourceContents } from "../../protocol/types/content.js";
import { base64Size, CONTENT_LIMITS, formatSize, truncate } from "./format.js";
import { inertJson, peerText } from "./peer-text.js";

const BINARY_NOTE = "data not shown; --json includes it";

const name = (text: unknown) => peerText(text, "name");
/** URIs may be long, and are copied from here to `mcpkit read`: one line, not cut short. */
const uri = (text: unknown) => peerText(text, "message");

/** The size of base64 data, or "?" when it is not a string. */
const sizeOf = (data: unknown) => (typeof data === "string" ? formatSize(base64Size(data)) : "?");

function annotationsOf(annotations: Annotations | undefined): string {
  if (!annotations) return "";
  const parts: string[] = [];
  if (Array.isArray(annotations.audience) && annotations.audience.length > 0)
    parts.push(`audience: ${annotations.audience.map(name).join(", ")}`);
  if (annotations.priority !== undefined) parts.push(`priority: ${name(annotations.priority)}`);
  if (annotations.lastModified) parts.push(`modified: ${name(annotations.lastModified)}`);
  return parts.length > 0 ? ` (${parts.join("; ")})` : "";
}

/** The body of resource contents: the text, or a summary of the bytes. */
function contentsBody(contents: ResourceContents, full: boolean, binaryNote = BINARY_NOTE): string {
  if ("text" in contents && typeof contents.text === "string")
    return truncate(peerText(contents.text, "content"), CONTENT_LIMITS, full);
  if ("blob" in contents && typeof contents.blob === "string") {
    return `(binary, ${sizeOf(contents.blob)}; ${binaryNote})`;
  }
  return "(no text or blob)";
}

/**
 * One content block with a `[type]` header line (`prefix` goes first inside the brackets, e.g. the
 * role of a prompt message); text is truncated unless `full`, binary data only summarised.
 */
export function renderBlock(block: ContentBlock, full: boolean, prefix?: string): string {
  const label = (type: string, rest = "") =>
    `[${prefix ? `${name(prefix)}, ` : ""}${type}]${rest}${annotationsOf(block.annotations)}`;
  switch (block.type) {
    case "text":
      return `${label("text")}\n${truncate(peerText(block.text, "content"), CONTENT_LIMITS, full)}`;
    case "image":
    case "audio":
      return label(block.type, ` ${name(block.mimeType)}, ${sizeOf(block.data)} (${BINARY_NOTE})`);
    case "resource_link": {
      const details = [
        block.title ?? block.name,
        block.mimeType,
        block.size === undefined ? undefined : typeof block.size === "number" ? formatSize(block.size) : "?",
      ]
        .filter(Boolean)
        .map(name);
      const description = block.description ? `\n${peerText(block.description, "text")}` : "";
      return `${label("resource_link", ` ${uri(block.uri)}`)}\n${details.join(", ")}${description}`;
    }
    case "resource": {
      const { resource } = block;
      const mime = resource.mimeType ? ` (${name(resource.mimeType)})` : "";
      return `${label("resource", ` ${uri(resource.uri)}${mime}`)}\n${contentsBody(resource, full)}`;
    }
    default: {
      const unknown = block as { type?: unknown };
      return `${label(name(unknown.type))}\n${renderJson(unknown, full)}`;
    }
  }
}

/** The contents of `resources/read`, each under a `[mime] uri` header. */
export function renderContents(contents: ResourceContents, full: boolean): string {
  const mime = name(contents.mimeType ?? ("blob" in contents ? "binary" : "text"));
  const note = "--raw writes the bytes, --json gives base64";
  return `[${mime}] ${uri(contents.uri)}\n${contentsBody(contents, full, note)}`;
}

/** Pretty JSON, truncated unless `full`, and capped as content. */
export function renderJson(value: unknown, full: boolean): string {
  return truncate(peerText(inertJson(value, 2), "content"), CONTENT_LIMITS, full);
}
