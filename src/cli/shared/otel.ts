/**
 * `--otel`: traces what the proxy serves and forwards with mcpkit/otel, exporting spans to OTLP/HTTP
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`) or to stderr (`--otel=console`). The OpenTelemetry packages load
 * only when asked for: `@opentelemetry/api` and `@opentelemetry/sdk-trace-base` must be installed.
 */
import type { ClientMiddleware } from "../../client/requests/middleware.js";
import type { ServerMiddleware } from "../../server/dispatch/middleware.js";
import { isMissingPackage, MissingPeerError } from "../../util/optional-peer.js";
import { UsageError } from "./errors.js";

/** The middlewares to install and how to flush what is left at exit. */
interface CliTracing {
  server: ServerMiddleware;
  client: ClientMiddleware;
  /** Where spans go, for a stderr line. */
  destination: string;
  shutdown(): Promise<void>;
}

/** Checks `--otel`'s value: `true` (bare), `otlp` or `console`. */
export function otelExporterOf(value: string | boolean | undefined): "otlp" | "console" | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true || value === "otlp") return "otlp";
  if (value === "console") return "console";
  throw new UsageError(`--otel takes "otlp" or "console" (write --otel=console), not "${value}"`);
}

export async function startTracing(exporter: "otlp" | "console", env = process.env): Promise<CliTracing> {
  const { otlpTracesUrl, OtlpJsonSpanExporter, StderrSpanExporter } = await import("./otlp.js");
  const url = exporter === "otlp" ? otlpTracesUrl(env) : undefined;
  if (exporter === "otlp" && url === undefined) {
    throw new UsageError(
      "--otel exports to OTLP/HTTP: set OTEL_EXPORTER_OTLP_ENDPOINT, or write --otel=console",
    );
  }
  let sdk: typeof import("@opentelemetry/sdk-trace-base");
  let otel: typeof import("../../otel/index.js");
  try {
    [sdk, otel] = await Promise.all([import("@opentelemetry/sdk-trace-base"), import("../../otel/index.js")]);
  } catch (error) {
    if (!(error instanceof MissingPeerError) && !isMissingPackage(error, "@opentelemetry/sdk-trace-base")) {
      throw error;
    }
    throw new UsageError(
      "--otel needs the OpenTelemetry API and trace SDK: npm install @opentelemetry/api @opentelemetry/sdk-trace-base",
      { cause: error },
    );
  }
  const spans = url
    ? new OtlpJsonSpanExporter(url, env.OTEL_SERVICE_NAME ?? "mcpkit-proxy", env)
    : new StderrSpanExporter();
  const tracerProvider = new sdk.BasicTracerProvider({ spanProcessors: [new sdk.BatchSpanProcessor(spans)] });
  return {
    server: otel.otelServer({ tracerProvider }),
    client: otel.otelClient({ tracerProvider }),
    destination: url ?? "stderr",
    shutdown: () => tracerProvider.shutdown(),
  };
}
