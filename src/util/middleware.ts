/**
 * The middleware machinery both roles share: which methods a middleware applies to, and the
 * chains composed once per method, so a method no middleware applies to costs nothing per call.
 */

/** Which methods a middleware applies to: one method, a list, or a glob (`"tools/*"`, `"*"`). */
export type MethodSelector = string | readonly string[];

/** One link of a chain: gets the context and the rest of the chain. */
export type Link<C, R> = (ctx: C, next: () => Promise<R>) => R | Promise<R>;

/** A chain run: the middlewares around the inner call, outermost first. */
export type Chain<C, R> = (ctx: C) => Promise<R>;

interface Entry<C, R> {
  readonly matches: (method: string) => boolean;
  readonly link: Link<C, R>;
  readonly rank: number;
}

/** A matcher for a selector; a string with `*` is a glob where `*` stands for any characters. */
function selectorMatcher(selector: MethodSelector | undefined): (method: string) => boolean {
  if (selector === undefined) return () => true;
  const patterns = typeof selector === "string" ? [selector] : selector;
  if (patterns.length === 0) throw new TypeError("A middleware's method list is empty");
  const exact = new Set<string>();
  const globs: RegExp[] = [];
  for (const pattern of patterns) {
    if (typeof pattern !== "string" || pattern === "")
      throw new TypeError(`A middleware's method must be a non-empty string, not ${JSON.stringify(pattern)}`);
    if (!pattern.includes("*")) exact.add(pattern);
    else globs.push(new RegExp(`^${pattern.split("*").map(escapeRegExp).join(".*")}$`));
  }
  return (method) => exact.has(method) || globs.some((glob) => glob.test(method));
}

const escapeRegExp = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

/**
 * Composes links around `inner`, outermost first. `next()` always returns a promise (a handler
 * that throws synchronously rejects it), and may be called again to retry.
 */
export function compose<C, R>(links: readonly Link<C, R>[], inner: (ctx: C) => R | Promise<R>): Chain<C, R> {
  let run: Chain<C, R> = (ctx) => {
    try {
      return Promise.resolve(inner(ctx));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  for (let i = links.length - 1; i >= 0; i--) {
    const link = links[i]!;
    const next = run;
    run = (ctx) => {
      try {
        return Promise.resolve(link(ctx, () => next(ctx)));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  return run;
}

/**
 * The middlewares of one role, ordered by rank (lower is outer), then in the order they were
 * added: of one rank, the first added is the outermost. `version` changes with every addition, so
 * holders of composed chains know to compose again.
 */
export class MiddlewareStack<C, R> {
  private readonly entries: Entry<C, R>[] = [];
  /** The links of each method asked about since the last change. */
  private readonly byMethod = new Map<string, readonly Link<C, R>[]>();
  version = 0;

  /**
   * Adds a middleware for the selected methods (all methods without a selector), after those of
   * its rank and before those of a higher one.
   */
  add(selector: MethodSelector | undefined, link: Link<C, R>, rank = 0): void {
    if (typeof link !== "function") throw new TypeError("A middleware must be a function (ctx, next) => …");
    const at = this.entries.findIndex((entry) => entry.rank > rank);
    const entry = { matches: selectorMatcher(selector), link, rank };
    if (at < 0) this.entries.push(entry);
    else this.entries.splice(at, 0, entry);
    this.byMethod.clear();
    this.version++;
  }

  get size(): number {
    return this.entries.length;
  }

  /** The links that apply to `method`, outermost first; empty when none do. */
  linksFor(method: string): readonly Link<C, R>[] {
    let links = this.byMethod.get(method);
    if (links === undefined) {
      links = this.entries.filter((entry) => entry.matches(method)).map((entry) => entry.link);
      // Bounded, whatever methods a peer names.
      if (this.byMethod.size < 256) this.byMethod.set(method, links);
    }
    return links;
  }
}

/** Reads the `use(mw)` / `use(selector, mw)` overloads. */
export function useArguments<L>(
  selectorOrLink: MethodSelector | L,
  link: L | undefined,
): [MethodSelector | undefined, L] {
  if (link === undefined) return [undefined, selectorOrLink as L];
  return [selectorOrLink as MethodSelector, link];
}
