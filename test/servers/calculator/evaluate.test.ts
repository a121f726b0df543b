import { describe, expect, it } from "vitest";
import { ExpressionError, evaluate } from "../../../src/servers/calculator/evaluate.js";

/** Asserts that `input` is rejected with an ExpressionError whose message is exactly `message`. */
function rejects(input: string, message: string): void {
  let caught: unknown;
  try {
    evaluate(input);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ExpressionError);
  expect((caught as ExpressionError).message).toBe(message);
}

describe("evaluate", () => {
  it("parses numbers", () => {
    expect(evaluate("3")).toBe(3);
    expect(evaluate("3.5")).toBe(3.5);
    expect(evaluate(".5")).toBe(0.5);
    expect(evaluate("1e3")).toBe(1000);
    expect(evaluate("2.5E-2")).toBe(0.025);
    expect(evaluate("1E+2")).toBe(100);
    expect(evaluate("  \t42\n ")).toBe(42);
  });

  it("applies precedence", () => {
    expect(evaluate("1 + 2 * 3")).toBe(7);
    expect(evaluate("(1 + 2) * 3")).toBe(9);
    expect(evaluate("10 - 4 / 2")).toBe(8);
    expect(evaluate("7 % 4 + 1")).toBe(4);
    expect(evaluate("2 * 3 ^ 2")).toBe(18);
    expect(evaluate("2 * 3 ** 2")).toBe(18);
  });

  it("is left associative for + - * / % and right associative for power", () => {
    expect(evaluate("10 - 4 - 3")).toBe(3);
    expect(evaluate("100 / 10 / 5")).toBe(2);
    expect(evaluate("17 % 10 % 4")).toBe(3);
    expect(evaluate("2 ^ 3 ^ 2")).toBe(512);
    expect(evaluate("2 ** 3 ** 2")).toBe(512);
    expect(evaluate("(2 ^ 3) ^ 2")).toBe(64);
  });

  it("handles unary operators", () => {
    expect(evaluate("-3")).toBe(-3);
    expect(evaluate("+3")).toBe(3);
    expect(evaluate("--3")).toBe(3);
    expect(evaluate("-+-3")).toBe(3);
    expect(evaluate("2 * -3")).toBe(-6);
    expect(evaluate("-2 ^ 2")).toBe(-4);
    expect(evaluate("-2 ** 2")).toBe(-4);
    expect(evaluate("(-2) ^ 2")).toBe(4);
    expect(evaluate("2 ^ -1")).toBe(0.5);
    expect(evaluate("-0")).toBe(0);
  });

  it("calls functions", () => {
    expect(evaluate("sqrt(16)")).toBe(4);
    expect(evaluate("abs(-2.5)")).toBe(2.5);
    expect(evaluate("floor(2.7)")).toBe(2);
    expect(evaluate("ceil(2.1)")).toBe(3);
    expect(evaluate("round(2.5)")).toBe(3);
    expect(evaluate("sin(0)")).toBe(0);
    expect(evaluate("cos(0)")).toBe(1);
    expect(evaluate("tan(0)")).toBe(0);
    expect(evaluate("log(1000)")).toBe(3);
    expect(evaluate("ln(e)")).toBe(1);
    expect(evaluate("exp(0)")).toBe(1);
    expect(evaluate("min(3, 1, 2)")).toBe(1);
    expect(evaluate("max(3, 1, 2)")).toBe(3);
    expect(evaluate("max(7)")).toBe(7);
    expect(evaluate("pow(2, 10)")).toBe(1024);
    expect(evaluate("sqrt(abs(-8) * 2) + max(1, min(5, 4))")).toBe(8);
  });

  it("knows the constants", () => {
    expect(evaluate("pi")).toBe(Math.PI);
    expect(evaluate("e")).toBe(Math.E);
    expect(evaluate("2 * pi")).toBe(2 * Math.PI);
    expect(evaluate("cos(pi)")).toBe(-1);
  });

  it("rejects syntax errors with their position", () => {
    rejects("(1 + 2))", 'unexpected ")" at position 8');
    rejects("1 +", "unexpected end of expression at position 4");
    rejects("", "unexpected end of expression at position 1");
    rejects("   ", "unexpected end of expression at position 4");
    rejects("(1 + 2", 'expected ")" but found end of expression at position 7');
    rejects("1 2", 'unexpected "2" at position 3');
    rejects("2e", 'unexpected "e" at position 2');
    rejects("1.2.3", 'unexpected ".3" at position 4');
    rejects("*2", 'unexpected "*" at position 1');
    rejects("sqrt 4", 'expected "(" but found "4" at position 6');
    rejects("pi(2)", 'unexpected "(" at position 3');
    rejects("max(1,)", 'unexpected ")" at position 7');
  });

  it("rejects wrong argument counts", () => {
    rejects("sqrt(1, 2)", "sqrt() expects 1 argument, got 2 at position 1");
    rejects("pow(2)", "pow() expects 2 arguments, got 1 at position 1");
    rejects("min()", "min() expects at least 1 argument, got 0 at position 1");
  });

  it("rejects division and modulo by zero", () => {
    rejects("1 / 0", "division by zero at position 3");
    rejects("5 % (2 - 2)", "modulo by zero at position 3");
  });

  it("rejects non-finite results", () => {
    rejects("sqrt(-1)", "result is not a finite number at position 1");
    rejects("ln(0)", "result is not a finite number at position 1");
    rejects("10 ^ 400", "result is not a finite number at position 4");
    rejects("1e308 * 10", "result is not a finite number at position 7");
    rejects("1e999", 'number too large "1e999" at position 1');
  });

  it("rejects unknown characters and identifiers, naming them", () => {
    rejects("1;2", 'unexpected character ";" at position 2');
    rejects("2 & 3", 'unexpected character "&" at position 3');
    rejects("constructor", 'unknown identifier "constructor" at position 1');
    rejects("__proto__", 'unknown identifier "__proto__" at position 1');
    rejects("toString(1)", 'unknown identifier "toString" at position 1');
    rejects("process.exit(1)", 'unknown identifier "process" at position 1');
    rejects("1 + x", 'unknown identifier "x" at position 5');
    rejects("PI", 'unknown identifier "PI" at position 1');
    rejects("2 😀", 'unexpected character "😀" at position 3');
  });

  it("rejects input over the length limit", () => {
    const ok = "1+".repeat(499) + "1";
    expect(ok).toHaveLength(999);
    expect(evaluate(ok)).toBe(500);
    expect(evaluate(" ".repeat(999) + "1")).toBe(1);
    rejects(" ".repeat(1000) + "1", "expression too long (max 1000 characters)");
  });

  it("rejects nesting over the depth limit instead of overflowing the stack", () => {
    expect(evaluate("(".repeat(100) + "1" + ")".repeat(100))).toBe(1);
    rejects("(".repeat(101) + "1" + ")".repeat(101), "nesting too deep (max 100 levels) at position 101");
    expect(evaluate("abs(".repeat(100) + "-1" + ")".repeat(100))).toBe(1);
    rejects("abs(".repeat(101) + "1" + ")".repeat(101), "nesting too deep (max 100 levels) at position 401");
  });

  it("rejects a non-string argument", () => {
    expect(() => evaluate(42 as unknown as string)).toThrow(
      new ExpressionError("expression must be a string"),
    );
  });
});
