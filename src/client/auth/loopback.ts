import { createServer, type Server } from "node:http";
import { OAuthError } from "./errors.js";

/** A redirect receiver listening on this machine for the one request that ends an authorization. */
export interface LoopbackReceiver {
  /** `http://127.0.0.1:<port><path>`: the redirect URI to give the authorization server. */
  readonly redirectUri: string;
  /** Resolves with the URL the browser was sent to, once; rejects on timeout or abort. */
  wait(signal: AbortSignal): Promise<URL>;
  close(): void;
}

const PAGE = (title: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><p>${title}. You can close this window.</p>`;

/**
 * Starts a receiver on `127.0.0.1` (a random port unless `port` is given) that takes one request
 * to `path` and stops listening. Other paths get 404 and do not count.
 */
export async function startLoopbackReceiver(
  options: { port?: number; path?: string } = {},
): Promise<LoopbackReceiver> {
  const path = options.path ?? "/callback";
  let deliver: ((url: URL) => void) | undefined;
  let received: URL | undefined;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method !== "GET" || url.pathname !== path || received) {
      response.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      return;
    }
    received = new URL(url.pathname + url.search, redirectUri);
    const failed = url.searchParams.has("error");
    response
      .writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        connection: "close",
      })
      .end(PAGE(failed ? "Authorization was not granted" : "Authorization complete"));
    deliver?.(received);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const redirectUri = `http://127.0.0.1:${port}${path}`;
  const close = () => {
    server.close();
    server.closeAllConnections();
  };
  return {
    redirectUri,
    close,
    wait: (signal) =>
      new Promise<URL>((resolve, reject) => {
        if (received) return resolve(received);
        const onAbort = () => reject(new OAuthError("The authorization was not completed in time"));
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
        deliver = (url) => {
          signal.removeEventListener("abort", onAbort);
          resolve(url);
        };
      }),
  };
}
