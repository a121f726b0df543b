/**
 * A round-robin HTTP balancer in front of replicas, with no stickiness: each request goes to the
 * next replica, whatever session it belongs to. A replica that refuses the connection (it was
 * killed) is skipped, and the request goes to the next; it gets no requests for `downFor` ms, then
 * is tried again, as a real balancer's passive health check does.
 */
import { Agent, createServer, request as httpRequest } from "node:http";

/**
 * Listens on `port` (0: a free one) and spreads requests over the replicas `ports()` names.
 * @param {() => number[]} ports
 * @param {{ port?: number, path?: string, downFor?: number }} [options]
 */
export async function startBalancer(ports, { port: listenPort = 0, path = "/mcp", downFor = 5000 } = {}) {
  let next = 0;
  let refused = 0;
  /** Replicas that refused a connection, to when they are tried again. */
  const down = new Map();
  /** The replicas to send to: those not down, or all of them if every one is. */
  const candidates = () => {
    const all = ports();
    const now = Date.now();
    for (const [port, until] of down) if (until <= now || !all.includes(port)) down.delete(port);
    const up = all.filter((port) => !down.has(port));
    return up.length > 0 ? up : all;
  };
  // Connections to the replicas are kept open and reused, as a real balancer's are.
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  /** @type {number[]} */
  const routed = [];
  const forward = (req, res, body, attempt) => {
    const all = candidates();
    const port = all[next++ % all.length];
    const upstream = httpRequest(
      { host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers, agent },
      (reply) => {
        routed.push(port);
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
        res.on("close", () => reply.destroy());
        // The replica died mid-response: the client's connection breaks too, as behind a real balancer.
        reply.on("close", () => {
          if (!reply.complete) res.destroy();
        });
      },
    );
    upstream.on("error", (error) => {
      if (error.code === "ECONNREFUSED") {
        refused++;
        down.set(port, Date.now() + downFor);
        if (attempt < all.length) return forward(req, res, body, attempt + 1);
      }
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    // The client hung up: so does the balancer, upstream (as a real one does).
    res.on("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.end(body);
  };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => forward(req, res, Buffer.concat(chunks), 1));
  });
  await new Promise((resolve) => server.listen(listenPort, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    routed,
    get refused() {
      return refused;
    },
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
