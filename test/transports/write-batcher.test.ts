import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { WriteBatcher } from "../../src/transports/stdio/write-batcher.js";

function batcher() {
  const writes: string[] = [];
  const writer = new WriteBatcher(new PassThrough(), (text) => void writes.push(text));
  return { writer, writes };
}

describe("WriteBatcher", () => {
  it("joins what one tick writes into one write, a microtask later", async () => {
    const { writer, writes } = batcher();
    writer.write("a\n");
    writer.write("b\n");
    expect(writes).toEqual([]);
    await Promise.resolve();
    expect(writes).toEqual(["a\nb\n"]);
  });

  it("writes what was written while held as soon as it is released, in one write, and later writes as usual", async () => {
    const { writer, writes } = batcher();
    writer.hold();
    writer.write("1\n");
    writer.hold();
    writer.write("2\n");
    writer.release();
    expect(writes).toEqual([]);
    writer.release();
    expect(writes).toEqual(["1\n2\n"]);
    writer.write("3\n");
    expect(writes).toEqual(["1\n2\n"]);
    await Promise.resolve();
    expect(writes).toEqual(["1\n2\n", "3\n"]);
  });
});
