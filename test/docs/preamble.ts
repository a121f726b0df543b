/**
 * What a guide's fragment finds already made when the docs test runs it: the globals that
 * fragments.ts declares, for real. A block runs as `import * as __docs from "preamble"`, the
 * block's runtime setup (which sets the globals it needs), the block, then its `after` code, which
 * reports what the test checks with {@link report} and ends with {@link close}. Bundled into the
 * block's program by esbuild; `mcpkit/…` is the built package, as a user gets it.
 */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { Agent, OpenAIChatModel } from "mcpkit/agent";
import { McpClient, MultiServerClient } from "mcpkit/client";
import { ErrorCode, McpError } from "mcpkit/jsonrpc";
import { McpServer } from "mcpkit/server";
import type { HttpServerHandle } from "mcpkit/transports/http/server";
import { z } from "zod";

/** The repository, which the docs test gives as `DOCS_ROOT`. */
const root = process.env.DOCS_ROOT ?? process.cwd();
const closers: (() => unknown)[] = [];
const global = globalThis as Record<string, unknown>;

// Imported by an earlier block of the same guide.
Object.assign(global, { McpServer, McpClient, MultiServerClient, Agent, McpError, ErrorCode, z });

/** Hands the test what it checks: one line of JSON on stdout, marked. */
export function report(values: Record<string, unknown>): void {
  console.log(`DOCS-REPORT ${JSON.stringify(values)}`);
}

/** Ends what the setup made (clients, servers, child processes), last made first. */
export async function close(): Promise<void> {
  for (const closer of closers.reverse()) await closer();
}

/** A server a fragment adds to: `echo` and `admin_reset`; `echo` answers with the request's `_meta`. */
function demoServer(): McpServer {
  return new McpServer({ name: "demo", version: "1.0.0" })
    .tool("echo", { input: z.object({ text: z.string() }) }, ({ text }, ctx) =>
      JSON.stringify({ text, meta: ctx.meta ?? {} }),
    )
    .tool("admin_reset", {}, () => "reset");
}

/** `server`, made but not served: the block serves it. */
export function server(): void {
  global.server = demoServer();
}

/** `server` served over HTTP on a free port, `url` its endpoint, and `client` connected to it. */
export async function servedServer(): Promise<void> {
  const made = demoServer();
  const http: HttpServerHandle = await made.serveHttp({ port: 0 });
  closers.push(() => http.close());
  const connected = await McpClient.connect({ url: http.url });
  closers.push(() => connected.close());
  Object.assign(global, { server: made, url: http.url, client: connected });
}

/** `config`: the bundled "everything" server, over stdio. */
function everythingConfig() {
  return {
    mcpServers: {
      everything: {
        command: process.execPath,
        args: [join(root, "dist/cli/main.js"), "serve", "everything"],
      },
    },
  };
}

/** `mcp`: a MultiServerClient holding the bundled "everything" server. */
export async function mcp(): Promise<void> {
  const connected = await MultiServerClient.connect(everythingConfig(), { failOnError: true });
  closers.push(() => connected.close());
  Object.assign(global, { mcp: connected, config: everythingConfig() });
}

/**
 * Runs another block's program serving its `server` over HTTP (see {@link serve}) and gives the
 * URL it prints; the process is stopped by {@link close}.
 */
export async function httpServerBlock(file: string): Promise<string> {
  const child = spawn(process.execPath, [file], {
    env: { ...process.env, DOCS_SERVE: "http" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill();
      }),
  );
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const served = /^DOCS-URL (\S+)$/.exec(line);
    if (served) return served[1]!;
  }
  throw new Error(`${file} ended without serving (exit code ${child.exitCode})`);
}

/** The `after` of a block that makes a server: serves it over stdio, or over HTTP if asked. */
export async function serve(made: McpServer): Promise<void> {
  if (process.env.DOCS_SERVE !== "http") {
    await made.serveStdio();
    return;
  }
  const http = await made.serveHttp({ port: 0 });
  console.log(`DOCS-URL ${http.url}`);
}

/**
 * `client` and `other`: two clients of one server, connected to `url` in 2025-11-25 sessions (the
 * revision whose tasks a client lists), accepting elicitations.
 */
export async function clients(
  url: string,
  content: Record<string, string | number | boolean>,
): Promise<void> {
  for (const name of ["client", "other"]) {
    const connected = await McpClient.connect({
      url,
      protocolVersion: "2025-11-25",
      elicitation: async () => ({ action: "accept", content }),
    });
    closers.push(() => connected.close());
    global[name] = connected;
  }
}

/** `client` of a block's program over stdio, started in `cwd`. */
export async function stdioClient(file: string, cwd: string): Promise<void> {
  const connected = await McpClient.connect({ command: process.execPath, args: [resolve(file)], cwd });
  closers.push(() => connected.close());
  global.client = connected;
}

/** `model`: OpenAI's API as the docs test scripts it, at `OPENAI_BASE_URL`. */
export function openAiModel(): void {
  global.model = new OpenAIChatModel({ model: "gpt-4o-mini" });
}

/** Spans end up in memory, for {@link spanNames}: OpenTelemetry's global tracer provider. */
export async function tracing(): Promise<void> {
  const { trace } = await import("@opentelemetry/api");
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import(
    "@opentelemetry/sdk-trace-base"
  );
  const memory = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] }),
  );
  finished = () => memory.getFinishedSpans();
}
let finished = (): { name: string }[] => [];

/** The names of the spans ended so far. */
export function spanNames(): string[] {
  return finished().map((span) => span.name);
}

/** The reader's own code that the auth fragment's tools call. */
export function notesCode(): void {
  global.add = (text: string) => `added ${text}`;
}

/** What the tasks fragment asks the user. */
export function jobsCode(): void {
  global.requestedSchema = { type: "object", properties: { go: { type: "boolean" } } };
}

/** The view, input and handler of the apps fragment's tool. */
export function weatherCode(): void {
  Object.assign(global, {
    forecastHtml: "<!doctype html><title>Forecast</title><p id=forecast></p>",
    input: z.object({ city: z.string() }),
    handler: ({ city }: { city: string }) => `Sunny in ${city}`,
  });
}

/** `config`: the servers of a MultiServerClient, here the one at `url`. */
export function configOf(url: string): void {
  global.config = { mcpServers: { demo: { url } } };
}
