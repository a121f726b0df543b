/** A value a template variable may take; `undefined`, an empty list and an empty map all mean "undefined". */
export type UriTemplateValue = string | number | boolean | string[] | Record<string, string> | undefined;

/** Variables matched out of a URI, percent-decoded. */
export type UriTemplateMatch = Record<string, string | string[]>;

type Operator = "" | "+" | "#" | "." | "/" | ";" | "?" | "&";

interface OperatorSpec {
  first: string; // written before the first defined variable
  sep: string; // between variables and between exploded items
  named: boolean; // `name=value` pairs
  ifemp: string; // after the name when a named value is empty
  reserved: boolean; // reserved characters and %XX triplets pass through unencoded
  stop: string; // characters a match of this operator never contains ("" = it may contain any)
}

// RFC 6570 appendix A, plus the stop set that drives matching.
const OPS: Record<Operator, OperatorSpec> = {
  "": { first: "", sep: ",", named: false, ifemp: "", reserved: false, stop: "/?#" },
  "+": { first: "", sep: ",", named: false, ifemp: "", reserved: true, stop: "" },
  "#": { first: "#", sep: ",", named: false, ifemp: "", reserved: true, stop: "" },
  ".": { first: ".", sep: ".", named: false, ifemp: "", reserved: false, stop: "/?#" },
  "/": { first: "/", sep: "/", named: false, ifemp: "", reserved: false, stop: "?#" },
  ";": { first: ";", sep: ";", named: true, ifemp: "", reserved: false, stop: "/?#" },
  "?": { first: "?", sep: "&", named: true, ifemp: "=", reserved: false, stop: "#" },
  "&": { first: "&", sep: "&", named: true, ifemp: "=", reserved: false, stop: "#" },
};

interface VarSpec {
  name: string;
  explode: boolean;
  prefix: number; // 0 = no prefix modifier
}

interface Expression {
  op: Operator;
  vars: VarSpec[];
  source: string;
  /** For matching, where it differs from the operator's: a `{+x}` in the path ends at `?` or `#`. */
  stop?: string;
}

const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*/;

// encodeURIComponent leaves !'()* alone, but they are reserved, not unreserved.
const pct = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Percent-encodes all but unreserved characters, or (reserved) all but unreserved, reserved and %XX. */
function encode(value: string, reserved: boolean): string {
  if (!reserved) return value.replace(/[^A-Za-z0-9\-._~]+/g, pct);
  return value.replace(/(%[0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+|%/g, (m, triplet) =>
    typeof triplet === "string" ? triplet : pct(m),
  );
}

/**
 * An RFC 6570 URI template (all of level 4), as used by MCP resource templates:
 * {@link UriTemplate.expand} fills it in, {@link UriTemplate.match} recovers the variables of a concrete URI.
 *
 * Matching is one left-to-right pass with no backtracking, so it is linear in the URI's length:
 * - Each operator has a stop set of characters its expansion never contains unencoded: `{x}`, `{.x}` and
 *   `{;x}` stop at `/ ? #`; `{/x}` at `? #`; `{?x}` and `{&x}` at `#`; `{+x}` and `{#x}` at nothing.
 *   A URI whose expression span contains one of its stop characters does not match (`{id}` never crosses `/`).
 * - An expression followed by a literal ends at that literal's first occurrence; the last expression of
 *   the template instead ends where the template's trailing literal begins as a suffix of the URI.
 *   (So in `{a}.{b}.json`, `a` never contains `.`, while `b` may.)
 * - **Ambiguity rule** (enforced by the constructor): an expression may directly follow another, with no
 *   literal between them, only if it has an operator that writes a leading character (`. / ; ? & #`)
 *   which is in the first expression's stop set; the first then ends at its first stop character. So
 *   `{a}{/b}`, `{a}{?q}`, `{/p*}{?q}`, `{a}{#f}` are accepted; `{a}{b}`, `{a}{+b}`, `{a}{.b}`, `{/a}{/b}`,
 *   `?x={+p}{&q}`, `{#a}{/b}` are rejected. Exception: `{?a}{&b}` (and `{&a}{&b}`) match as one query
 *   expression `{?a,b}` (`{&a,b}`), which must start with its own `?` (`&`): so the RFC's `&b=…` expansion
 *   of `{?a}{&b}` when `a` is undefined is not matched. Exception: a `{+x}` in the URI's path (no `?` or
 *   `#` before it in the template) may be followed directly by a `{?…}` or `{#…}` expression, as in
 *   `file:///{+path}{?rev}`: in a URI the first `?` starts the query and the first `#` the fragment
 *   (RFC 3986), so there it ends at either.
 *
 * Within an expression, variables take their separator-delimited pieces left to right; the first
 * exploded variable (or, in the comma-separated `{x,y}`, `{+x,y}`, `{#x,y}`, the first variable) takes the
 * surplus, and leftover pieces mean no match (`{/a}` does not match `/x/y`).
 * Query (`?`, `&`) and path-parameter (`;`) variables are matched by name, in any order, and unknown
 * parameters are ignored. Several comma-separated (or repeated, or exploded) values come back as a
 * `string[]`, except in `{+x}`/`{#x}`, where a literal comma is part of the value. Exploded maps come back
 * as `key=value` strings. A variable that occurs twice must match the same value both times.
 */
export class UriTemplate {
  /** The template text, as given. */
  readonly template: string;
  /** The distinct variable names, in order of first appearance. */
  readonly variableNames: string[];
  readonly #literals: string[] = []; // percent-encoded; #literals[i] precedes #expressions[i]
  readonly #expressions: Expression[] = [];
  readonly #matchLiterals: string[]; // the same with adjacent query expressions merged
  readonly #matchExpressions: Expression[] = [];

  /** Parses `template`; throws a `TypeError` saying what is wrong when it is malformed or ambiguous. */
  constructor(template: string) {
    this.template = template;
    const fail = (why: string) => new TypeError(`Invalid URI template "${template}": ${why}`);
    let pos = 0;
    for (;;) {
      const open = template.indexOf("{", pos);
      const close = template.indexOf("}", pos);
      if (close !== -1 && (open === -1 || close < open)) throw fail(`unmatched "}" at position ${close}`);
      this.#literals.push(encode(template.slice(pos, open === -1 ? undefined : open), true));
      if (open === -1) break;
      const nested = template.indexOf("{", open + 1);
      if (close === -1 || (nested !== -1 && nested < close)) throw fail(`unclosed "{" at position ${open}`);
      this.#expressions.push(parseExpression(template.slice(open + 1, close), open, fail));
      pos = close + 1;
    }
    this.variableNames = [...new Set(this.#expressions.flatMap((e) => e.vars.map((v) => v.name)))];

    this.#matchLiterals = [this.#literals[0]!];
    // Whether the template is still in the URI's path: no `?` or `#` (literal or expression) yet.
    let inPath = !/[?#]/.test(this.#literals[0]!);
    this.#expressions.forEach((e, i) => {
      const prev = this.#matchExpressions.at(-1);
      const prevInPath = inPath;
      const after = this.#literals[i + 1]!;
      inPath &&= !"?&#".includes(e.op) && !/[?#]/.test(after);
      if (prev && this.#matchLiterals.at(-1) === "") {
        if ((prev.op === "?" || prev.op === "&") && e.op === "&") {
          prev.vars.push(...e.vars);
          prev.source += e.source;
          this.#matchLiterals[this.#matchLiterals.length - 1] = after;
          return;
        }
        const lead = OPS[e.op].first;
        // In a URI the first `?` starts the query and the first `#` the fragment (RFC 3986), so a
        // reserved expansion in the path ends there: `file:///{+path}{?rev}` is not ambiguous.
        if (prev.op === "+" && prevInPath && (lead === "?" || lead === "#")) {
          prev.stop = "?#";
        } else if (lead === "" || !OPS[prev.op].stop.includes(lead)) {
          throw fail(
            `ambiguous: ${prev.source} is directly followed by ${e.source}; with no literal between them, the ` +
              `second expression must start with an operator character the first cannot contain (e.g. {a}{/b})`,
          );
        }
      }
      this.#matchExpressions.push({ ...e, vars: [...e.vars] });
      this.#matchLiterals.push(after);
    });
  }

  /** Expands the template (RFC 6570 level 4); missing variables count as undefined. */
  expand(variables: Record<string, UriTemplateValue>): string {
    let out = this.#literals[0]!;
    this.#expressions.forEach((e, i) => {
      out += expandExpression(e, variables) + this.#literals[i + 1]!;
    });
    return out;
  }

  /** The decoded variables of `uri`, or `undefined` if it does not match (see the class doc). */
  match(uri: string): UriTemplateMatch | undefined {
    const literals = this.#matchLiterals;
    const expressions = this.#matchExpressions;
    const head = literals[0]!;
    if (!uri.startsWith(head)) return undefined;
    if (expressions.length === 0) return uri === head ? {} : undefined;
    const out: UriTemplateMatch = {};
    let pos = head.length;
    for (let i = 0; i < expressions.length; i++) {
      const expression = expressions[i]!;
      const stop = expression.stop ?? OPS[expression.op].stop;
      const next = literals[i + 1]!;
      let end: number;
      if (i === expressions.length - 1) {
        end = uri.length - next.length;
        if (end < pos || !uri.endsWith(next)) return undefined;
      } else if (next === "") {
        end = pos;
        while (end < uri.length && !stop.includes(uri[end]!)) end++;
      } else {
        end = uri.indexOf(next, pos);
        if (end === -1) return undefined;
      }
      const span = uri.slice(pos, end);
      for (const c of stop) if (span.includes(c)) return undefined;
      if (!capture(expression, span, out)) return undefined;
      pos = end + next.length;
    }
    return out;
  }

  /** The template text. */
  toString(): string {
    return this.template;
  }
}

function parseExpression(body: string, at: number, fail: (why: string) => TypeError): Expression {
  const source = `{${body}}`;
  if (body === "") throw fail(`empty expression at position ${at}`);
  if ("=,!@|".includes(body[0]!)) throw fail(`operator "${body[0]}" in ${source} is reserved, not supported`);
  const op = (Object.hasOwn(OPS, body[0]!) ? body[0] : "") as Operator;
  if (body.length === op.length) throw fail(`expression ${source} has no variables`);
  const vars = body
    .slice(op.length)
    .split(",")
    .map((spec): VarSpec => {
      const name = VARNAME.exec(spec)?.[0] ?? "";
      const modifier = spec.slice(name.length);
      if (name !== "" && modifier === "") return { name, explode: false, prefix: 0 };
      if (name !== "" && modifier === "*") return { name, explode: true, prefix: 0 };
      if (name !== "" && /^:[1-9][0-9]{0,3}$/.test(modifier)) {
        return { name, explode: false, prefix: Number(modifier.slice(1)) };
      }
      if (name !== "" && modifier.startsWith(":")) {
        throw fail(`invalid prefix modifier "${modifier}" on "${name}" in ${source} (expected :1 to :9999)`);
      }
      throw fail(`invalid variable name "${spec}" in ${source}`);
    });
  return { op, vars, source };
}

function expandExpression(e: Expression, variables: Record<string, UriTemplateValue>): string {
  const op = OPS[e.op];
  const enc = (s: string) => encode(s, op.reserved);
  const parts: string[] = [];
  for (const v of e.vars) {
    const value = Object.hasOwn(variables, v.name) ? variables[v.name] : undefined;
    if (value == null) continue;
    if (typeof value !== "object") {
      const s = v.prefix ? Array.from(String(value)).slice(0, v.prefix).join("") : String(value);
      parts.push(!op.named ? enc(s) : s === "" ? v.name + op.ifemp : `${v.name}=${enc(s)}`);
      continue;
    }
    // Prefix modifiers do not apply to composite values (RFC 6570 section 2.4.1), so they are ignored.
    const items: [string | undefined, string][] = Array.isArray(value)
      ? value.map((x) => [undefined, String(x)])
      : Object.entries(value)
          .filter(([, x]) => x != null)
          .map(([k, x]) => [k, String(x)]);
    if (items.length === 0) continue;
    if (!v.explode) {
      const joined = items.flatMap(([k, x]) => (k === undefined ? [enc(x)] : [enc(k), enc(x)])).join(",");
      parts.push(op.named ? `${v.name}=${joined}` : joined);
      continue;
    }
    for (const [k, x] of items) {
      const key = k !== undefined ? enc(k) : op.named ? v.name : undefined;
      parts.push(key === undefined ? enc(x) : op.named && x === "" ? key + op.ifemp : `${key}=${enc(x)}`);
    }
  }
  return parts.length > 0 ? op.first + parts.join(op.sep) : "";
}

/** Reads one expression's span of the URI into `out`; false if it cannot be that expression's expansion. */
function capture(e: Expression, span: string, out: UriTemplateMatch): boolean {
  const op = OPS[e.op];
  let rest = span;
  if (op.first !== "") {
    if (rest === "") return true; // every variable undefined
    // Only the operator's own character: an expression before a merged `{?a}{&b}` may contain `&`.
    if (rest[0] !== op.first) return false;
    rest = rest.slice(1);
  }
  const pieces = rest.split(op.sep);
  if (op.named) {
    for (const v of e.vars) {
      const values = pieces
        .filter((p) => p === v.name || p.startsWith(`${v.name}=`))
        .flatMap((p) => p.slice(v.name.length + 1).split(","));
      if (values.length > 0 && !assign(out, v.name, values)) return false;
    }
    return true;
  }
  let k = 0;
  for (const [i, v] of e.vars.entries()) {
    const left = pieces.length - k;
    if (left <= 0) break;
    const take = v.explode || op.sep === "," ? Math.max(1, left - (e.vars.length - 1 - i)) : 1;
    const taken = pieces.slice(k, k + take);
    k += take;
    const values = op.reserved && !v.explode ? [taken.join(",")] : taken.flatMap((p) => p.split(","));
    if (!assign(out, v.name, values)) return false;
  }
  return k === pieces.length; // leftover pieces: e.g. `{/a}` against `/x/y`
}

function assign(out: UriTemplateMatch, name: string, raw: string[]): boolean {
  let values: string[];
  try {
    values = raw.map((s) => decodeURIComponent(s));
  } catch {
    return false; // malformed percent-encoding
  }
  const value = values.length === 1 ? values[0]! : values;
  if (Object.hasOwn(out, name) && JSON.stringify(out[name]) !== JSON.stringify(value)) return false;
  // defineProperty, because `__proto__` is a valid variable name.
  Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  return true;
}

type ExpressionsOf<T extends string> = T extends `${string}{${infer E}}${infer Rest}`
  ? E | ExpressionsOf<Rest>
  : never;
type OperatorOf<E extends string> = E extends `${infer O extends Exclude<Operator, "">}${string}` ? O : "";
type VarListOf<E extends string> = E extends `${Exclude<Operator, "">}${infer R}` ? R : E;
type SplitVars<S extends string> = S extends `${infer A},${infer B}` ? A | SplitVars<B> : S;
type NameOf<V extends string> = V extends `${infer N}*` ? N : V extends `${infer N}:${string}` ? N : V;
/** What a variable matches as: exploded, a list; in `{+x}`/`{#x}`, a string; else either. */
type ValueOf<E extends string, V extends string> = V extends `${string}*`
  ? string[]
  : OperatorOf<E> extends "+" | "#"
    ? SplitVars<VarListOf<E>> extends V
      ? string
      : string | string[]
    : string | string[];
type Entries<T extends string> = {
  [E in ExpressionsOf<T>]: {
    [V in SplitVars<VarListOf<E>>]: [NameOf<V>, ValueOf<E, V>, OperatorOf<E>];
  }[SplitVars<VarListOf<E>>];
}[ExpressionsOf<T>];
type Flatten<T> = { [K in keyof T]: T[K] } & {};

/**
 * The variables a URI template matches, typed from the template string: `notes://{id}` gives
 * `{ id: string | string[] }` (a comma-separated list matches as a list), `{+path}` a string,
 * `{tags*}` a list, and query variables (`{?q}`, `{&q}`) may be absent. A template that is not a
 * literal type gives `Record<string, string | string[]>`.
 */
export type UriTemplateVariables<T extends string> = string extends T
  ? UriTemplateMatch
  : Flatten<
      { [X in Entries<T> as X[2] extends "?" | "&" ? never : X[0]]: X[1] } & {
        [X in Entries<T> as X[2] extends "?" | "&" ? X[0] : never]?: X[1];
      }
    >;
