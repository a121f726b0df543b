/**
 * `mcpkit proxy --otel`: spans of what the proxy serves and forwards, as OTLP/JSON POSTed to the
 * endpoint of OTEL_EXPORTER_OTLP_ENDPOINT (served here), or as JSON lines on stderr
 * (`--otel=console`); and the usage errors.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { CLI, ROOT } from "../proxy/helpers.js";

const TOOLS = fileURLToPath(new URL("../fixtures/tools-server.js", import.meta.url));

let cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  cleanups = [];
});

/** Starts the proxy with `env`; resolves with its URL, its stderr so far, and a stop that waits for exit. */
function proxy(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [CLI, "proxy", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const stop = () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    return exited;
  };
  cleanups.push(stop);
  return new Promise<{ url: string; stderr: () => string; stop: () => Promise<number | null> }>(
    (resolve, reject) => {
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
        const found = /mcpkit: proxy listening on (http:\/\/\S+\/mcp)\n/.exec(stderr);
        if (found) resolve({ url: found[1]!, stderr: () => stderr, stop });
      });
      void exited.then((code) => reject(new Error(`proxy exited with ${code}: ${stderr}`)));
    },
  );
}

interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  status: { code: number; message?: string };
}

const attribute = (span: OtlpSpan, key: string) => span.attributes.find((a) => a.key === key)?.value;

async function callThrough(url: string): Promise<void> {
  const client = await McpClient.connect({ url, protocolVersion: "2025-11-25" });
  expect((await client.callTool("echo", { message: "hi" })).isError).toBeFalsy();
  await client.close();
}

describe("mcpkit proxy --otel", () => {
  it("POSTs OTLP/JSON spans to OTEL_EXPORTER_OTLP_ENDPOINT: the proxy's server span and its upstream call under it", async () => {
    const bodies: { path: string; body: { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] } }[] = [];
    const collector: Server = createServer((request, response) => {
      let text = "";
      request.setEncoding("utf8").on("data", (chunk) => {
        text += chunk;
      });
      request.on("end", () => {
        bodies.push({ path: request.url!, body: JSON.parse(text) });
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => collector.close(resolve)));
    const { port } = collector.address() as { port: number };
    const running = await proxy(["--otel", "--http", "--port", "0", "--", process.execPath, TOOLS], {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_SERVICE_NAME: "gateway",
    });
    expect(running.stderr()).toContain(`mcpkit: proxy: tracing to http://127.0.0.1:${port}/v1/traces`);
    await callThrough(running.url);
    expect(await running.stop()).toBe(0);

    expect(bodies.every(({ path }) => path === "/v1/traces")).toBe(true);
    const spans = bodies.flatMap(({ body }) =>
      body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)),
    );
    const served = spans.find((span) => span.name === "tools/call echo" && span.kind === 2)!;
    const forwarded = spans.find((span) => span.name === "tools/call echo" && span.kind === 3)!;
    expect(served).toBeDefined();
    expect(forwarded.parentSpanId).toBe(served.spanId);
    expect(forwarded.traceId).toBe(served.traceId);
    expect(attribute(served, "gen_ai.tool.name")).toEqual({ stringValue: "echo" });
    expect(attribute(forwarded, "network.transport")).toEqual({ stringValue: "pipe" });
    expect(attribute(served, "network.transport")).toEqual({ stringValue: "tcp" });
    const resource = (bodies[0]!.body.resourceSpans[0] as unknown as { resource: OtlpSpan }).resource;
    expect(attribute(resource, "service.name")).toEqual({ stringValue: "gateway" });
  });

  it("writes spans as JSON lines on stderr with --otel=console", async () => {
    const running = await proxy(
      ["--otel=console", "--http", "--port", "0", "--", process.execPath, TOOLS],
      {},
    );
    await callThrough(running.url);
    expect(await running.stop()).toBe(0);
    const spans = running
      .stderr()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as OtlpSpan);
    const served = spans.find((span) => span.name === "tools/call echo" && span.kind === 2)!;
    expect(spans.find((span) => span.name === "tools/call echo" && span.kind === 3)?.parentSpanId).toBe(
      served.spanId,
    );
  });

  it("refuses --otel without an endpoint, and an unknown exporter, as usage errors", async () => {
    const run = (args: string[], env: Record<string, string | undefined>) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, "proxy", ...args, "--", process.execPath, TOOLS], {
          cwd: ROOT,
          env,
        });
        let stderr = "";
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
          stderr += chunk;
        });
        child.on("exit", (code) => resolve({ code, stderr }));
      });
    const { OTEL_EXPORTER_OTLP_ENDPOINT: _a, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: _b, ...env } = process.env;
    const bare = await run(["--otel", "--http", "--port", "0"], env);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("set OTEL_EXPORTER_OTLP_ENDPOINT, or write --otel=console");
    const unknown = await run(["--otel=jaeger", "--http", "--port", "0"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--otel takes "otlp" or "console"');
  });
});
