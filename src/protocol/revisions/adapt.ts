import type { ContentBlock } from "../types/content.js";
import type { Tool } from "../types/tools.js";
import { carriesStructuredOutput, type Revision } from "./revision.js";

/**
 * Content blocks a revision knows, with the others turned into text that says what they were:
 * an older client cannot read an `audio` or `resource_link` block, but it can read that sentence.
 * Returns the same array when nothing needs changing.
 */
export function adaptContent(content: ContentBlock[], revision: Revision): ContentBlock[] {
  let adapted: ContentBlock[] | undefined;
  for (let i = 0; i < content.length; i++) {
    const block = content[i]!;
    if (revision.contentTypes.has(block.type)) {
      adapted?.push(block);
      continue;
    }
    adapted ??= content.slice(0, i);
    adapted.push({ type: "text", text: describe(block, revision.version) });
  }
  return adapted ?? content;
}

function describe(block: ContentBlock, version: string): string {
  if (block.type === "resource_link") {
    const about = block.description ? ` — ${block.description}` : "";
    return `Resource ${block.title ?? block.name}: ${block.uri}${about}`;
  }
  return `[${block.type} content${"mimeType" in block ? ` (${block.mimeType})` : ""} omitted: protocol ${version} cannot carry it]`;
}

/** A tool description with only the fields the revision defines. */
export function adaptTool(tool: Tool, revision: Revision): Tool {
  const output = tool.outputSchema;
  const outputFits = output === undefined || carriesStructuredOutput(revision, output.type === "object");
  if (revision.icons && revision.toolAnnotations && outputFits) return tool;
  const { title, icons, outputSchema, annotations, execution, ...rest } = tool;
  const adapted: Tool = rest;
  if (revision.titles && title !== undefined) adapted.title = title;
  if (revision.icons && icons !== undefined) adapted.icons = icons;
  // An output that is not an object is left out where the revision knows only object outputs.
  if (outputFits && outputSchema !== undefined) adapted.outputSchema = outputSchema;
  if (revision.toolAnnotations && annotations !== undefined) adapted.annotations = annotations;
  return adapted;
}

/** A resource, template or prompt description without the `title`/`icons` the revision lacks. */
export function adaptDescription<T extends { title?: string; icons?: unknown[] }>(
  item: T,
  revision: Revision,
): T {
  if ((revision.titles || item.title === undefined) && (revision.icons || item.icons === undefined))
    return item;
  const { title, icons, ...rest } = item;
  const adapted = rest as T;
  if (revision.titles && title !== undefined) adapted.title = title;
  if (revision.icons && icons !== undefined) adapted.icons = icons;
  return adapted;
}
