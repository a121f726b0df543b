/**
 * A minimal JSON-RPC-over-HTTP client on `node:http` with a keep-alive agent: the floor's HTTP
 * client, and the client of the idle-sessions scenario (which must be the same for every server).
 * Understands both answers a Streamable HTTP server may give a POST: JSON, or an SSE stream.
 */
import { Agent, request } from "node:http";

export class RawHttpClient {
  constructor(url, { maxSockets = Number.POSITIVE_INFINITY } = {}) {
    this.url = new URL(url);
    this.agent = new Agent({ keepAlive: true, maxSockets });
    this.nextId = 1;
  }

  /** POSTs one message; resolves with `{ status, headers, body }` (body as a string). */
  post(message, headers = {}) {
    const body = JSON.stringify(message);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          agent: this.agent,
          method: "POST",
          hostname: this.url.hostname,
          port: this.url.port,
          path: this.url.pathname,
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "content-length": Buffer.byteLength(body),
            ...headers,
          },
        },
        (res) => {
          const chunks = [];
          res.on("data", (chunk) => chunks.push(chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }

  /** Sends a request and resolves with its result; rejects on an HTTP or JSON-RPC error. */
  async request(method, params, headers) {
    const id = this.nextId++;
    const res = await this.post({ jsonrpc: "2.0", id, method, params }, headers);
    if (res.status !== 200) throw new Error(`${method}: HTTP ${res.status} ${res.body.slice(0, 200)}`);
    const message = responseOf(res, id);
    if (message.error) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
    return { result: message.result, headers: res.headers };
  }

  close() {
    this.agent.destroy();
  }
}

/** The JSON-RPC response with this id in a JSON or SSE body. */
function responseOf(res, id) {
  if (!String(res.headers["content-type"]).startsWith("text/event-stream")) return JSON.parse(res.body);
  for (const event of res.body.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart())
      .join("\n");
    if (!data) continue;
    const message = JSON.parse(data);
    if (message.id === id && ("result" in message || "error" in message)) return message;
  }
  throw new Error(`no response with id ${id} in the event stream`);
}
