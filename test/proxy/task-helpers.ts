/** `mcpkit serve everything --http` as a process, and a pass-through that records what is sent to it. */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CLI, ROOT } from "./helpers.js";

/** A running `mcpkit serve everything --http --port 0`. */
export interface ServeProcess {
  url: string;
  stop(): Promise<void>;
}

export function serveEverything(): Promise<ServeProcess> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [CLI, "serve", "everything", "--http", "--port", "0"],
    { cwd: ROOT },
  );
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  let stderr = "";
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const found = /mcpkit: everything listening on (http:\/\/\S+\/mcp)\n/.exec(stderr);
      if (found) {
        resolve({
          url: found[1]!,
          stop: () => {
            if (child.exitCode === null) child.kill("SIGTERM");
            return exited;
          },
        });
      }
    });
    void exited.then(() => reject(new Error(`serve exited: ${stderr}`)));
  });
}

/** One JSON-RPC request that went through the pass-through. */
export interface Sent {
  method: string;
  params?: Record<string, unknown>;
}

/** An HTTP pass-through to `target` that keeps every JSON-RPC request it forwards. */
export interface Recorder {
  url: string;
  sent: Sent[];
  /** The upstream task ids the requests named (`tasks/get`, `tasks/cancel`, …), by method. */
  taskIds(method: string): string[];
  close(): Promise<void>;
}

export async function recordTo(target: string): Promise<Recorder> {
  const upstream = new URL(target);
  const sent: Sent[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (body.length > 0) {
        try {
          const parsed = JSON.parse(body.toString("utf8")) as Sent | Sent[];
          for (const message of [parsed].flat()) if (typeof message.method === "string") sent.push(message);
        } catch {
          // Not JSON: passed on as it is.
        }
      }
      const headers = { ...req.headers, host: upstream.host };
      const forwarded = request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forwarded.on("error", () => res.destroy());
      res.on("close", () => forwarded.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    sent,
    taskIds: (method) =>
      sent
        .filter((message) => message.method === method && typeof message.params?.taskId === "string")
        .map((message) => message.params!.taskId as string),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
