import type { Annotations } from "../types/base.js";
import type {
  AudioContent,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  ResourceContents,
  ResourceLink,
  TextContent,
} from "../types/content.js";

/** A text content block. */
export function text(value: string, annotations?: Annotations): TextContent {
  return annotations ? { type: "text", text: value, annotations } : { type: "text", text: value };
}

/** An image content block from base64 data or raw bytes. */
export function image(data: string | Uint8Array, mimeType: string): ImageContent {
  return { type: "image", data: toBase64(data), mimeType };
}

/** An audio content block from base64 data or raw bytes. */
export function audio(data: string | Uint8Array, mimeType: string): AudioContent {
  return { type: "audio", data: toBase64(data), mimeType };
}

/** A link to a resource. */
export function resourceLink(
  uri: string,
  name: string,
  extra: Omit<ResourceLink, "type" | "uri" | "name"> = {},
): ResourceLink {
  return { type: "resource_link", uri, name, ...extra };
}

/** A resource's contents embedded in a result. */
export function embeddedResource(resource: ResourceContents, annotations?: Annotations): EmbeddedResource {
  return annotations ? { type: "resource", resource, annotations } : { type: "resource", resource };
}

/** All text blocks of a content list joined by newlines: what a model reads of a result. */
export function joinText(content: readonly ContentBlock[]): string {
  let out = "";
  let first = true;
  for (const block of content) {
    if (block.type !== "text") continue;
    out = first ? block.text : `${out}\n${block.text}`;
    first = false;
  }
  return out;
}

function toBase64(data: string | Uint8Array): string {
  return typeof data === "string"
    ? data
    : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
}
