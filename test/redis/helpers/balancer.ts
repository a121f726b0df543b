/**
 * A round-robin HTTP balancer in front of replicas, with no stickiness: each request goes to the
 * next replica, whatever session it belongs to. A replica that refuses the connection (it was
 * killed) is skipped, and the request goes to the next.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Balancer {
  /** The MCP endpoint's URL through the balancer. */
  readonly url: string;
  /** The replica ports requests went to, in order (tests check that they spread). */
  readonly routed: number[];
  close(): Promise<void>;
}

export async function startBalancer(ports: () => number[], path = "/mcp"): Promise<Balancer> {
  let next = 0;
  const routed: number[] = [];
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, attempt: number) => {
    const all = ports();
    const port = all[next++ % all.length]!;
    const upstream = httpRequest(
      { host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers },
      (reply) => {
        routed.push(port);
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
        res.on("close", () => reply.destroy());
      },
    );
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED" && attempt < all.length) return forward(req, res, body, attempt + 1);
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
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => forward(req, res, Buffer.concat(chunks), 1));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    routed,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
