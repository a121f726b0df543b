/**
 * The measure a client takes of a server's tool schema stops at its node cap without listing every
 * element of a long array first: observed through a proxy that notes whether its keys were listed.
 */
import { expect, it } from "vitest";
import { schemaProblem } from "../../src/client/tools/tool-schemas.js";

it("refuses a schema with a long array without listing the array's indices", () => {
  let listed = false;
  const values = new Proxy(
    Array.from({ length: 200_000 }, (_, i) => i),
    {
      ownKeys(target) {
        listed = true;
        return Reflect.ownKeys(target);
      },
    },
  );
  const schema = { type: "object", properties: { v: { enum: values } } };
  expect(schemaProblem(schema, "its input schema")).toBe("its input schema has more than 100000 nodes");
  expect(listed).toBe(false);
});
