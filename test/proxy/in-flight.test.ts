/**
 * The proxy's list of calls in flight to one upstream, linked through the calls: adding and
 * removing keeps order and size, a call's signal finds it, and removing a call twice (or one
 * never added) leaves the list as it was.
 */
import { describe, expect, it } from "vitest";
import { InFlight, type InFlightLinks } from "../../src/proxy/in-flight.js";

class Call implements InFlightLinks<Call> {
  previousInFlight: Call | undefined;
  nextInFlight: Call | undefined;
  readonly signal = new AbortController().signal;
  constructor(readonly name: string) {}
}

const names = (list: InFlight<Call>) => [...list].map((call) => call.name);

describe("InFlight", () => {
  it("keeps calls in the order they were added, whichever leaves", () => {
    const list = new InFlight<Call>();
    const [a, b, c, d] = [new Call("a"), new Call("b"), new Call("c"), new Call("d")];
    for (const call of [a, b, c, d]) list.add(call);
    expect(names(list)).toEqual(["a", "b", "c", "d"]);
    list.delete(b);
    expect(names(list)).toEqual(["a", "c", "d"]);
    list.delete(a);
    list.delete(d);
    expect(names(list)).toEqual(["c"]);
    expect(list.size).toBe(1);
    list.add(a);
    expect(names(list)).toEqual(["c", "a"]);
    list.delete(c);
    list.delete(a);
    expect(names(list)).toEqual([]);
    expect(list.size).toBe(0);
  });

  it("finds a call by its signal, and nothing once it left", () => {
    const list = new InFlight<Call>();
    const [a, b] = [new Call("a"), new Call("b")];
    list.add(a);
    list.add(b);
    expect(list.withSignal(b.signal)).toBe(b);
    expect(list.withSignal(new AbortController().signal)).toBeUndefined();
    list.delete(b);
    expect(list.withSignal(b.signal)).toBeUndefined();
    expect(list.withSignal(a.signal)).toBe(a);
  });

  it("leaves the list alone when a call not in it is removed", () => {
    const list = new InFlight<Call>();
    const [a, b, stranger] = [new Call("a"), new Call("b"), new Call("stranger")];
    list.add(a);
    list.add(b);
    list.delete(stranger);
    list.delete(a);
    list.delete(a);
    expect(names(list)).toEqual(["b"]);
    expect(list.size).toBe(1);
  });
});
