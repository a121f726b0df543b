import { afterEach, describe, expect, it } from "vitest";
import type { McpClient } from "../../src/client/index.js";
import { BUNDLED_SERVERS } from "../../src/servers/index.js";
import { connectInMemory } from "../helpers/connect.js";

let client: McpClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe("bundled servers", () => {
  // `mcpkit serve <name>` should say which server it is, as each host shows that name to its user.
  for (const [name, bundled] of Object.entries(BUNDLED_SERVERS)) {
    it(`${name} reports itself as mcpkit-${name}`, async () => {
      const args = name === "filesystem" ? [process.cwd()] : [];
      ({ client } = await connectInMemory(await bundled.create(args, {})));
      expect(client.serverInfo.name).toBe(`mcpkit-${name}`);
    });
  }
});
