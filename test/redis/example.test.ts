/** examples/replicas.ts as a user runs it: three replicas on a redis-server, behind its balancer. */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RedisProcess, startRedis } from "./helpers/redis-server.js";

const run = promisify(execFile);
const example = fileURLToPath(new URL("../../build/examples/replicas.js", import.meta.url));

let redis: RedisProcess;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

it("serves one session from three replicas behind the example's balancer", { timeout: 60_000 }, async () => {
  const { stdout } = await run(process.execPath, [example, redis.url], { timeout: 50_000 });
  expect(stdout).toContain(`3 replicas on ${redis.url}, behind http://127.0.0.1:`);
  expect(stdout).toContain("one session, protocol 2025-11-25");
  expect(stdout.match(/greet → Hello from replica \d+/g)).toHaveLength(3);
  expect(stdout).toContain("3 replicas served the session");
});
