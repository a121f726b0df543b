import { audio, embeddedResource, image, resourceLink, text } from "../../protocol/features/content.js";
import type { McpServer } from "../../server/server.js";
import { PNG_BASE64, PNG_DATA_URI, WAV_BASE64 } from "./media.js";
import { STATIC_BINARY_URI, STATIC_TEXT_URI, WATCHED_URI, type WatchedResource } from "./resources.js";

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** The 2020-12 schema the json-schema-2020-12 scenario expects back from `tools/list`, verbatim. */
const JSON_SCHEMA_2020_12 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, not a thenable
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

/** The tools that need nothing from the client: content of every kind, logging, progress, errors. */
export function registerTools(server: McpServer, watched: WatchedResource): void {
  server
    .tool(
      "test_simple_text",
      {
        title: "Simple Text",
        description: "Tests simple text content response",
        annotations: READ_ONLY,
        icons: [{ src: PNG_DATA_URI, mimeType: "image/png", sizes: ["1x1"] }],
      },
      () => "This is a simple text response for testing.",
    )
    .tool(
      "test_image_content",
      { title: "Image Content", description: "Tests image content response", annotations: READ_ONLY },
      () => [image(PNG_BASE64, "image/png")],
    )
    .tool(
      "test_audio_content",
      { description: "Tests audio content response", annotations: READ_ONLY },
      () => [audio(WAV_BASE64, "audio/wav")],
    )
    .tool("test_embedded_resource", { description: "Tests embedded resource content response" }, () => [
      embeddedResource({
        uri: "test://embedded-resource",
        mimeType: "text/plain",
        text: "This is an embedded resource content.",
      }),
    ])
    .tool(
      "test_multiple_content_types",
      { description: "Tests response with multiple content types (text, image, resource)" },
      () => [
        text("Multiple content types test:"),
        image(PNG_BASE64, "image/png"),
        embeddedResource({
          uri: "test://mixed-content-resource",
          mimeType: "application/json",
          text: JSON.stringify({ test: "data", value: 123 }),
        }),
      ],
    )
    .tool(
      "test_resource_link",
      { description: "Tests resource_link content: links to two resources of this server" },
      () => [
        text("Two resources of this server:"),
        resourceLink(STATIC_TEXT_URI, "static-text", {
          mimeType: "text/plain",
          title: "Static Text Resource",
        }),
        resourceLink(STATIC_BINARY_URI, "static-binary", {
          mimeType: "image/png",
          annotations: { audience: ["user"], priority: 0.2 },
        }),
      ],
    )
    .tool(
      "test_tool_with_logging",
      { description: "Tests tool that emits log messages during execution" },
      async (_args, ctx) => {
        ctx.log("info", "Tool execution started", "everything");
        await sleep(50, ctx.signal);
        ctx.log("info", "Tool processing data", "everything");
        await sleep(50, ctx.signal);
        ctx.log("info", "Tool execution completed", "everything");
        return "Tool with logging executed successfully";
      },
    )
    .tool(
      "test_tool_with_progress",
      { description: "Tests tool that reports progress notifications (0, 50, 100 of 100)" },
      async (_args, ctx) => {
        for (const done of [0, 50, 100]) {
          if (done > 0) await sleep(50, ctx.signal);
          ctx.progress(done, 100, `Completed step ${done} of 100`);
        }
        const token = ctx.meta?.progressToken;
        return token === undefined
          ? "Done (no progress token given)"
          : `Done, reported progress to ${String(token)}`;
      },
    )
    .tool(
      "test_reconnection",
      {
        description:
          "Closes its SSE stream mid-call; the client resumes with Last-Event-ID to get the result",
      },
      async (_args, ctx) => {
        ctx.closeStream();
        await sleep(200, ctx.signal);
        return "Reconnection test completed: the result arrived on the resumed stream";
      },
    )
    .tool("test_error_handling", { description: "Tests error response handling" }, () => {
      throw new Error("This tool intentionally returns an error for testing");
    })
    .tool(
      "test_update_watched_resource",
      {
        title: "Update Watched Resource",
        description: `Changes ${WATCHED_URI}, which notifies its subscribers`,
        annotations: {
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: false,
          openWorldHint: false,
        },
      },
      () => {
        const version = watched.touch();
        server.resourceUpdated(WATCHED_URI);
        return `${WATCHED_URI} is now at version ${version}`;
      },
    )
    .tool(
      "json_schema_2020_12_tool",
      {
        description: "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
        input: JSON_SCHEMA_2020_12,
      },
      (args) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`,
    );
}
