/**
 * The input schemas of the workload's tools, as zod schemas (the idiomatic way, for all three
 * libraries) or, with `schema: "json"`, as plain JSON Schema objects. zod is imported only when used,
 * so the JSON variants measure a library without zod's own start-up cost.
 */
import { messageJsonSchema, statsJsonSchema } from "./workload.mjs";

export async function schemas(config) {
  if (config.schema === "json") return { message: messageJsonSchema, stats: statsJsonSchema, z: undefined };
  const { z } = await import("zod");
  return {
    message: () => z.object({ message: z.string() }),
    stats: () => z.object({ gc: z.boolean().optional() }),
    z,
  };
}
