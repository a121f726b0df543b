import { ErrorCode, McpError } from "../../jsonrpc/errors.js";

/**
 * One page of items sorted by key, after the cursor. The cursor is the last key of the previous
 * page, encoded, so pages stay stable while items are added or removed.
 */
export function pageOf<T>(
  sorted: readonly T[],
  keyOf: (item: T) => string,
  cursor: unknown,
  pageSize: number,
): { items: T[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined && cursor !== null) {
    const after = decode(cursor);
    let high = sorted.length;
    while (start < high) {
      const mid = (start + high) >>> 1;
      if (keyOf(sorted[mid]!) <= after) start = mid + 1;
      else high = mid;
    }
  }
  const end = Math.min(start + pageSize, sorted.length);
  const items = sorted.slice(start, end);
  return end < sorted.length ? { items, nextCursor: encode(keyOf(sorted[end - 1]!)) } : { items };
}

/** Sorts by key in code-unit order, the order `pageOf` pages in. */
export function sortByKey<T>(items: T[], keyOf: (item: T) => string): T[] {
  return items.sort((a, b) => {
    const x = keyOf(a);
    const y = keyOf(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/**
 * Cursor pagination over a collection, sorting once per change. It keeps the items themselves,
 * sorted, and reads their keys from them: no pair per item.
 */
export class Paginator<T> {
  private sorted: T[] | undefined;

  constructor(
    private readonly pageSize: number,
    private readonly source: () => Iterable<T>,
    private readonly keyOf: (item: T) => string,
  ) {}

  invalidate(): void {
    this.sorted = undefined;
  }

  /** A page of the items, or of those `keep` keeps (a caller's view), so pages stay full. */
  page(cursor: unknown, keep?: (item: T) => boolean): { items: T[]; nextCursor?: string } {
    this.sorted ??= sortByKey([...this.source()], this.keyOf);
    return pageOf(keep ? this.sorted.filter(keep) : this.sorted, this.keyOf, cursor, this.pageSize);
  }
}

function encode(key: string): string {
  return Buffer.from(key, "utf8").toString("base64url");
}

function decode(cursor: unknown): string {
  if (typeof cursor !== "string" || cursor.length === 0 || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw new McpError(ErrorCode.InvalidParams, `Invalid cursor: ${JSON.stringify(cursor)}`);
  }
  return Buffer.from(cursor, "base64url").toString("utf8");
}
