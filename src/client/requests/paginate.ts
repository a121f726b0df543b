import { ErrorCode, McpError } from "../../jsonrpc/errors.js";

/** Fetches one page of a list method. */
type PageFetcher = (method: string, cursor: string | undefined) => Promise<Record<string, unknown>>;

/** Follows `nextCursor` to the end; a repeated cursor is an error, not an endless loop. */
export async function allPages<T>(fetch: PageFetcher, method: string, key: string): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await fetch(method, cursor);
    for (const item of (page[key] as T[] | undefined) ?? []) items.push(item);
    cursor = page.nextCursor as string | undefined;
    if (cursor !== undefined) {
      if (seen.has(cursor))
        throw new McpError(ErrorCode.InternalError, `The server repeated the ${method} cursor ${cursor}`);
      seen.add(cursor);
    }
  } while (cursor !== undefined);
  return items;
}
