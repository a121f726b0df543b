/** Longest accepted input, in UTF-16 code units; keeps tokenizing and evaluation cheap. */
const MAX_LENGTH = 1000;
/** Deepest accepted nesting of parentheses and function calls; bounds recursion so input can't overflow the stack. */
const MAX_DEPTH = 100;

/**
 * Thrown by {@link evaluate} for any input it rejects. The message says what is wrong and, where it
 * applies, ends with `at position N` (1-based character position in the input), also given as {@link position}.
 */
export class ExpressionError extends Error {
  override name = "ExpressionError";
  /** 1-based character position the error refers to, if any. */
  readonly position: number | undefined;

  constructor(message: string, position?: number) {
    super(position === undefined ? message : `${message} at position ${position}`);
    this.position = position;
  }
}

interface Token {
  kind: "num" | "ident" | "op" | "end" | "bad";
  text: string;
  /** 1-based position of the token's first character. */
  pos: number;
}

interface Func {
  min: number;
  max: number;
  fn: (...args: number[]) => number;
}

const UNARY: Record<string, (x: number) => number> = {
  ...{ sqrt: Math.sqrt, abs: Math.abs, floor: Math.floor, ceil: Math.ceil, round: Math.round },
  ...{ sin: Math.sin, cos: Math.cos, tan: Math.tan, log: Math.log10, ln: Math.log, exp: Math.exp },
};
// Maps (not object lookups) so names like "constructor" or "__proto__" can't reach Object.prototype.
const FUNCTIONS = new Map<string, Func>([
  ...Object.entries(UNARY).map(([name, f]): [string, Func] => [name, { min: 1, max: 1, fn: (x) => f(x!) }]),
  ["min", { min: 1, max: Number.POSITIVE_INFINITY, fn: Math.min }],
  ["max", { min: 1, max: Number.POSITIVE_INFINITY, fn: Math.max }],
  ["pow", { min: 2, max: 2, fn: (a, b) => a! ** b! }],
]);
const CONSTANTS = new Map<string, number>([
  ["pi", Math.PI],
  ["e", Math.E],
]);

// Sticky regexes match only at lastIndex, so the tokenizer never skips input.
const NUMBER = /(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
const SINGLE_OPS = "+-*/%^(),";

function matchAt(re: RegExp, src: string, i: number): string | undefined {
  re.lastIndex = i;
  return re.exec(src)?.[0];
}

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = String.fromCodePoint(src.codePointAt(i)!);
    if (/\s/u.test(ch)) {
      i += ch.length;
      continue;
    }
    const num = matchAt(NUMBER, src, i);
    const ident = num === undefined ? matchAt(IDENT, src, i) : undefined;
    const op = src.startsWith("**", i) ? "**" : SINGLE_OPS.includes(ch) ? ch : undefined;
    const text = num ?? ident ?? op;
    // Defer the error to the parser so errors are reported in source order ("process.exit" names "process").
    if (text === undefined) return [...tokens, { kind: "bad", text: ch, pos: i + 1 }];
    tokens.push({ kind: num !== undefined ? "num" : ident !== undefined ? "ident" : "op", text, pos: i + 1 });
    i += text.length;
  }
  tokens.push({ kind: "end", text: "", pos: src.length + 1 });
  return tokens;
}

const describe = (t: Token): string => (t.kind === "end" ? "end of expression" : `"${t.text}"`);
const isOp = (t: Token, ...ops: string[]): boolean => t.kind === "op" && ops.includes(t.text);

function finite(value: number, pos: number): number {
  if (!Number.isFinite(value)) throw new ExpressionError("result is not a finite number", pos);
  return value;
}

/**
 * Safely evaluates an arithmetic expression, without `eval` or `Function`.
 *
 * Supports decimal numbers (`3`, `.5`, `2.5E-2`), `+ - * / %`, power `^` / `**` (right associative and
 * tighter than a unary minus on its left, so `-2^2` is `-4`), unary `+`/`-`, parentheses, the functions
 * `sqrt abs floor ceil round sin cos tan log ln exp min max pow` (`log` is base 10, `ln` natural,
 * `min`/`max` variadic) and the constants `pi` and `e`. Names are case-sensitive.
 *
 * @param expression - The expression text, at most 1000 characters and 100 levels of nesting.
 * @returns The finite numeric result.
 * @throws {@link ExpressionError} on invalid syntax, unknown names, division or modulo by zero,
 *   a non-finite result, or input over the length or nesting limits.
 */
export function evaluate(expression: string): number {
  // Tool arguments arrive from untrusted JSON, so guard the type at runtime too.
  if (typeof expression !== "string") throw new ExpressionError("expression must be a string");
  if (expression.length > MAX_LENGTH) {
    throw new ExpressionError(`expression too long (max ${MAX_LENGTH} characters)`);
  }
  const tokens = tokenize(expression);
  let index = 0;
  let depth = 0;
  const peek = (): Token => {
    const t = tokens[index]!;
    if (t.kind === "bad") throw new ExpressionError(`unexpected character "${t.text}"`, t.pos);
    return t;
  };
  const next = (): Token => {
    const t = peek();
    index++;
    return t;
  };
  const unexpected = (t: Token): never => {
    throw new ExpressionError(`unexpected ${describe(t)}`, t.pos);
  };
  const expect = (text: string): void => {
    const t = next();
    if (!isOp(t, text)) throw new ExpressionError(`expected "${text}" but found ${describe(t)}`, t.pos);
  };
  const enter = (t: Token): void => {
    depth++;
    if (depth > MAX_DEPTH) throw new ExpressionError(`nesting too deep (max ${MAX_DEPTH} levels)`, t.pos);
  };

  // Grammar, loosest first: sum := product (("+"|"-") product)*
  function sum(): number {
    let value = product();
    for (let t = peek(); isOp(t, "+", "-"); t = peek()) {
      index++;
      const right = product();
      value = finite(t.text === "+" ? value + right : value - right, t.pos);
    }
    return value;
  }

  // product := unary (("*"|"/"|"%") unary)*
  function product(): number {
    let value = unary();
    for (let t = peek(); isOp(t, "*", "/", "%"); t = peek()) {
      index++;
      const right = unary();
      if (t.text === "*") value = finite(value * right, t.pos);
      else if (right === 0)
        throw new ExpressionError(t.text === "/" ? "division by zero" : "modulo by zero", t.pos);
      else value = finite(t.text === "/" ? value / right : value % right, t.pos);
    }
    return value;
  }

  // unary := ("+"|"-") unary | power — unary sits above power, so -2^2 = -(2^2).
  function unary(): number {
    const t = peek();
    if (!isOp(t, "+", "-")) return power();
    index++;
    const value = unary();
    return t.text === "-" ? -value : value;
  }

  // power := primary (("^"|"**") unary)? — recursing into unary makes it right associative and allows 2^-1.
  function power(): number {
    const base = primary();
    const t = peek();
    if (!isOp(t, "^", "**")) return base;
    index++;
    return finite(base ** unary(), t.pos);
  }

  // primary := number | constant | function "(" args ")" | "(" sum ")"
  function primary(): number {
    const t = next();
    if (t.kind === "num") {
      const value = Number(t.text);
      if (!Number.isFinite(value)) throw new ExpressionError(`number too large "${t.text}"`, t.pos);
      return value;
    }
    if (isOp(t, "(")) {
      enter(t);
      const value = sum();
      expect(")");
      depth--;
      return value;
    }
    if (t.kind !== "ident") return unexpected(t);
    const constant = CONSTANTS.get(t.text);
    if (constant !== undefined) return constant;
    const func = FUNCTIONS.get(t.text);
    if (func === undefined) throw new ExpressionError(`unknown identifier "${t.text}"`, t.pos);
    expect("(");
    enter(t);
    const args: number[] = [];
    if (!isOp(peek(), ")")) {
      args.push(sum());
      while (isOp(peek(), ",")) {
        index++;
        args.push(sum());
      }
    }
    expect(")");
    depth--;
    if (args.length < func.min || args.length > func.max) {
      const want = func.min === func.max ? `${func.min}` : `at least ${func.min}`;
      const plural = func.min === 1 ? "argument" : "arguments";
      throw new ExpressionError(`${t.text}() expects ${want} ${plural}, got ${args.length}`, t.pos);
    }
    return finite(func.fn(...args), t.pos);
  }

  const result = sum();
  if (peek().kind !== "end") unexpected(peek());
  // Normalize -0 (e.g. from "-0" or round(-0.2)) so callers only ever see plain 0.
  return result === 0 ? 0 : result;
}
