// SDK v2's HTTP entries are web-standard `(Request) => Response` handlers. Its node:http adapter
// (@modelcontextprotocol/node) is not installed here, so this is the usual hand bridge: read the
// body, build a `Request`, copy the `Response` (JSON or a stream) back to node's response.
import { createServer } from "node:http";

async function toWebRequest(req, res) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const init = { method: req.method, headers: new Headers() };
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const one of value) init.headers.append(name, one);
    else if (value !== undefined) init.headers.append(name, value);
  }
  if (req.method !== "GET" && req.method !== "HEAD") init.body = Buffer.concat(chunks);
  else {
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    init.signal = controller.signal;
  }
  return new Request(`http://${req.headers.host}${req.url}`, init);
}

async function writeWebResponse(response, res) {
  const headers = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // the client went away
  }
  res.end();
}

/** A node:http server whose requests go to `handle(request) => Promise<Response>`. */
export function nodeServer(handle) {
  const server = createServer(async (req, res) => {
    try {
      await writeWebResponse(await handle(await toWebRequest(req, res)), res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    }
  });
  server.keepAliveTimeout = 60_000;
  return server;
}
