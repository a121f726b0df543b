/**
 * The span exporters of `mcpkit proxy --otel`: OTLP over HTTP with JSON bodies (no exporter package
 * needed), and JSON lines on stderr. Both take `@opentelemetry/sdk-trace-base`'s finished spans.
 */
import type { Attributes, AttributeValue } from "@opentelemetry/api";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import { VERSION } from "../../version.js";
import { inertJson } from "./peer-text.js";

/** `ExportResultCode` of `@opentelemetry/core`: 0 success, 1 failure. */
type ExportResult = { code: 0 | 1; error?: Error };

const nanos = ([seconds, nanoseconds]: [number, number]) =>
  `${BigInt(seconds) * 1_000_000_000n + BigInt(nanoseconds)}`;

/** An OTLP/JSON `AnyValue`. */
function anyValue(value: AttributeValue): object {
  if (Array.isArray(value))
    return { arrayValue: { values: value.filter((v) => v != null).map((v) => anyValue(v)) } };
  if (typeof value === "boolean") return { boolValue: value };
  if (typeof value === "number")
    return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  return { stringValue: String(value) };
}

const keyValues = (attributes: Attributes) =>
  Object.entries(attributes).flatMap(([key, value]) =>
    value === undefined ? [] : [{ key, value: anyValue(value) }],
  );

/** The OTLP span kind: the API's kind (INTERNAL 0 … CONSUMER 4) plus one. */
function otlpSpan(span: ReadableSpan): object {
  const context = span.spanContext();
  const out: Record<string, unknown> = {
    traceId: context.traceId,
    spanId: context.spanId,
    name: span.name,
    kind: span.kind + 1,
    startTimeUnixNano: nanos(span.startTime),
    endTimeUnixNano: nanos(span.endTime),
    attributes: keyValues(span.attributes),
    status: { code: span.status.code, ...(span.status.message ? { message: span.status.message } : {}) },
    events: span.events.map((event) => ({
      name: event.name,
      timeUnixNano: nanos(event.time),
      attributes: keyValues(event.attributes ?? {}),
    })),
  };
  if (span.parentSpanContext?.spanId) out.parentSpanId = span.parentSpanContext.spanId;
  if (context.traceState) out.traceState = context.traceState.serialize();
  return out;
}

/** Where OTLP traces go, from the standard environment variables. */
export function otlpTracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return base ? `${base.replace(/\/+$/, "")}/v1/traces` : undefined;
}

/** `OTEL_EXPORTER_OTLP_HEADERS`: `key=value` pairs, comma separated, values URL-encoded. */
function otlpHeaders(env: NodeJS.ProcessEnv): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (env.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? env.OTEL_EXPORTER_OTLP_HEADERS ?? "").split(
    ",",
  )) {
    const at = pair.indexOf("=");
    if (at > 0) headers[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}

/** Exports spans as OTLP/JSON `ExportTraceServiceRequest`s, POSTed to `url`. */
export class OtlpJsonSpanExporter implements SpanExporter {
  private readonly headers: Record<string, string>;

  constructor(
    private readonly url: string,
    private readonly serviceName: string,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.headers = { "content-type": "application/json", ...otlpHeaders(env) };
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    const body = {
      resourceSpans: [
        {
          resource: { attributes: keyValues({ "service.name": this.serviceName }) },
          scopeSpans: [{ scope: { name: "mcpkit", version: VERSION }, spans: spans.map(otlpSpan) }],
        },
      ],
    };
    fetch(this.url, {
      method: "POST",
      headers: this.headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    })
      .then(async (response) => {
        await response.body?.cancel();
        done(
          response.ok
            ? { code: 0 }
            : { code: 1, error: new Error(`OTLP endpoint answered ${response.status}`) },
        );
      })
      .catch((error: Error) => done({ code: 1, error }));
  }

  async shutdown(): Promise<void> {}
}

/** Writes each span as one JSON line on stderr (stdout may be the MCP stream). */
export class StderrSpanExporter implements SpanExporter {
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    // Spans carry tool names and error messages from upstream servers.
    for (const span of spans) process.stderr.write(`${inertJson(otlpSpan(span))}\n`);
    done({ code: 0 });
  }

  async shutdown(): Promise<void> {}
}
