/**
 * The server half of the driver protocol, shared by every implementation's server scripts.
 *
 * A server script gets its configuration as one JSON argument (`{ "tools": 10000, "era": "legacy" }`),
 * takes a memory mark before building its tools' input schemas, one once they are built (before
 * registering: what the schema objects cost by themselves) and one after registering (only when
 * `measureMemory` is set, since forcing a GC costs start-up time), with the time of each since the
 * process started, and answers the `stats` tool with `report()`: its CPU time
 * (`process.cpuUsage()`), its memory now (after a forced GC when asked and when run with
 * `--expose-gc`), and the marks. HTTP server scripts print one JSON line `{ "url": … }` on stdout
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
    // Times since the process started (performance.now()), without the marks' forced collections.
    this.times = { paused: 0 };
    this.beforeRegister = this.mark();
    this.times.created = this.now();
    this.schemasBuiltMark = undefined;
    this.afterRegister = undefined;
  }

  now() {
    return performance.now() - this.times.paused;
  }

  /** A memory mark after forced collections, when memory is measured; their time is not counted. */
  mark() {
    if (!this.config.measureMemory) return undefined;
    const start = performance.now();
    const taken = memory(true);
    this.times.paused += performance.now() - start;
    return taken;
  }

  /** Call once the filler tools' schemas are built, before registering them (idempotent). */
  schemasBuilt() {
    if (this.times.schemasBuilt !== undefined) return;
    this.times.schemasBuilt = this.now();
    this.schemasBuiltMark = this.mark();
  }

  /** Call once the tools are registered (idempotent: only the first call counts). */
  registered() {
    if (this.times.registered !== undefined) return;
    this.schemasBuilt();
    this.times.registered = this.now();
    this.afterRegister = this.mark();
  }

  /** What the `stats` tool answers, as a JSON string. */
  report(collect = false) {
    return JSON.stringify({
      pid: process.pid,
      cpu: process.cpuUsage(),
      memory: memory(collect),
      beforeRegister: this.beforeRegister,
      schemasBuilt: this.schemasBuiltMark,
      afterRegister: this.afterRegister,
      times: this.times,
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
