/**
 * The server half of the driver protocol, shared by every implementation's server scripts.
 *
 * A server script gets its configuration as one JSON argument (`{ "tools": 10000, "era": "legacy" }`),
 * takes a memory mark before and after registering its tools (only when `measureMemory` is set, since
 * forcing a GC costs start-up time), and answers the `stats` tool with `report()`: its CPU time
 * (`process.cpuUsage()`), its memory now (after a forced GC when asked and when run with
 * `--expose-gc`), and the two marks. HTTP server scripts print one JSON line `{ "url": … }` on stdout
 * once they listen.
 */

export function serverConfig() {
  const raw = process.argv[2];
  const config = raw ? JSON.parse(raw) : {};
  return { tools: 0, era: "legacy", measureMemory: false, ...config };
}

function memory(collect) {
  if (collect && typeof globalThis.gc === "function") {
    globalThis.gc();
    globalThis.gc();
  }
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, heapTotal, external, arrayBuffers };
}

export class ServerStats {
  constructor(config) {
    this.config = config;
    this.beforeRegister = config.measureMemory ? memory(true) : undefined;
    this.afterRegister = undefined;
  }

  /** Call once the tools are registered (idempotent: only the first call counts). */
  registered() {
    if (this.config.measureMemory && this.afterRegister === undefined) this.afterRegister = memory(true);
  }

  /** What the `stats` tool answers, as a JSON string. */
  report(collect = false) {
    return JSON.stringify({
      pid: process.pid,
      cpu: process.cpuUsage(),
      memory: memory(collect),
      beforeRegister: this.beforeRegister,
      afterRegister: this.afterRegister,
      uptimeMs: process.uptime() * 1000,
    });
  }
}

/** Prints the line the driver waits for, once an HTTP server listens. */
export function announce(url) {
  process.stdout.write(`${JSON.stringify({ url })}\n`);
}

/** Ends the process on SIGTERM/SIGINT (what the driver sends HTTP servers when a run is over). */
export function exitOnSignal(close) {
  const stop = () => {
    Promise.resolve(close?.())
      .catch(() => {})
      .finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
