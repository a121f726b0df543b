import { ErrorCode, McpError } from "../jsonrpc/errors.js";

/**
 * Cursor pagination over a named collection, in name order so that pages stay stable while
 * items are added or removed. The cursor is the last name of the previous page, encoded.
 */
export class Paginator<T> {
  private sorted: { name: string; item: T }[] | undefined;

  constructor(
    private readonly pageSize: number,
    private readonly source: () => ReadonlyMap<string, T>,
  ) {}

  invalidate(): void {
    this.sorted = undefined;
  }

  page(cursor: unknown): { items: T[]; nextCursor?: string } {
    this.sorted ??= [...this.source()]
      .map(([name, item]) => ({ name, item }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const all = this.sorted;
    const start = cursor === undefined || cursor === null ? 0 : this.after(decode(cursor));
    const end = Math.min(start + this.pageSize, all.length);
    const items = new Array<T>(end - start);
    for (let i = start; i < end; i++) items[i - start] = all[i]!.item;
    return end < all.length ? { items, nextCursor: encode(all[end - 1]!.name) } : { items };
  }

  /** Index of the first name greater than `name`. */
  private after(name: string): number {
    const all = this.sorted!;
    let low = 0;
    let high = all.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (all[mid]!.name <= name) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

function encode(name: string): string {
  return Buffer.from(name, "utf8").toString("base64url");
}

function decode(cursor: unknown): string {
  if (typeof cursor !== "string" || cursor.length === 0 || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw new McpError(ErrorCode.InvalidParams, `Invalid cursor: ${JSON.stringify(cursor)}`);
  }
  return Buffer.from(cursor, "base64url").toString("utf8");
}
