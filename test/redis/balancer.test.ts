/**
 * The replica tests' balancer (scripts/replicas/): a replica that refused a connection (killed) is
 * left out for a while instead of being tried again by every request.
 */
import { createServer } from "node:http";
import { expect, it } from "vitest";
import { startBalancer } from "./helpers/balancer.js";
import { freePort } from "./helpers/redis-server.js";

it("stops sending to a replica that refused a connection", async () => {
  const live = createServer((_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => live.listen(0, "127.0.0.1", resolve));
  const livePort = (live.address() as { port: number }).port;
  const dead = await freePort();
  const balancer = await startBalancer(() => [dead, livePort], { downFor: 600_000 });
  try {
    for (let i = 0; i < 6; i++) {
      const response = await fetch(balancer.url, { method: "POST", body: "{}" });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("ok");
    }
    expect(balancer.refused).toBe(1);
    expect(balancer.routed).toEqual(Array(6).fill(livePort));
  } finally {
    await balancer.close();
    await new Promise((resolve) => live.close(resolve));
  }
});

it("breaks the client's response when the replica dies in the middle of it", async () => {
  // A replica that starts an event stream, then dies (its connection closes mid-response).
  const dying = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("data: {}\n\n", () => res.socket?.destroy());
  });
  await new Promise<void>((resolve) => dying.listen(0, "127.0.0.1", resolve));
  const port = (dying.address() as { port: number }).port;
  const balancer = await startBalancer(() => [port]);
  try {
    const response = await fetch(balancer.url, { method: "POST", body: "{}" });
    expect(response.status).toBe(200);
    // The client hears of it (the body breaks) instead of waiting for the rest forever.
    const error = await response.text().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
  } finally {
    await balancer.close();
    await new Promise((resolve) => dying.close(resolve));
  }
});
