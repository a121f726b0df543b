import { readdirSync, readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { initializeRequest } from "./initialize.js";
import { MessageLog, SPEC_DIR, SpecChecker, specRevisions, specSchemasAvailable } from "./spec-schema.js";

/**
 * Without the spec schemas there is nothing to test here: each case is skipped with a note that says
 * so (and the run says so once, spec-schema-notice.ts).
 */
function withSpec(name: string, cases: () => void): void {
  describe(name, () => {
    beforeEach((ctx) =>
      ctx.skip(!specSchemasAvailable, `no MCP spec schemas in ${SPEC_DIR}: set MCP_SPEC_DIR`),
    );
    cases();
  });
}

const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];
const HANDSHAKE_REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

function initialize(revision: string, id: string | number = 1) {
  return initializeRequest({
    id,
    protocolVersion: revision,
    capabilities: { roots: { listChanged: true }, sampling: {} },
    clientInfo: { name: "test-client", version: "1.0.0" },
  });
}

function initializeResult(revision: string, id: string | number = 1) {
  return {
    jsonrpc: "2.0",
    id,
    result: {
      protocolVersion: revision,
      capabilities: { tools: { listChanged: true }, logging: {} },
      serverInfo: { name: "test-server", version: "1.0.0" },
      instructions: "be nice",
    },
  };
}

const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };

const toolsList = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
const toolsListResult = {
  jsonrpc: "2.0",
  id: 2,
  result: {
    tools: [
      {
        name: "add",
        description: "Adds two numbers",
        inputSchema: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        },
      },
    ],
  },
};
const toolsCall = {
  jsonrpc: "2.0",
  id: 3,
  method: "tools/call",
  params: { name: "add", arguments: { a: 1, b: 2 } },
};
function toolsCallResult(content: unknown[], extra: Record<string, unknown> = {}) {
  return { jsonrpc: "2.0", id: 3, result: { content, ...extra } };
}

/** Runs a client request through the checker (asserting it is valid) and returns the problems of the answer. */
function answer(checker: SpecChecker, request: unknown, response: unknown): string[] {
  expect(checker.check(request, "client")).toEqual([]);
  return checker.check(response, "server");
}

withSpec("SpecChecker", () => {
  it("finds every revision's schema beside the repo", () => {
    expect(specRevisions()).toEqual(expect.arrayContaining(REVISIONS));
    if (!process.env.MCP_SPEC_DIR) expect(SPEC_DIR.replace(/\\/g, "/")).toMatch(/\/shared\/spec\/$/);
    expect(() => new SpecChecker("1999-01-01")).toThrow(/no MCP schema for revision "1999-01-01"/);
  });

  it.each(HANDSHAKE_REVISIONS)("accepts a valid initialize handshake in %s", (revision) => {
    const checker = new SpecChecker(revision);
    expect(checker.check(initialize(revision), "client")).toEqual([]);
    expect(checker.check(initializeResult(revision), "server")).toEqual([]);
    expect(checker.check(initialized, "client")).toEqual([]);
    expect(checker.outstanding("client")).toEqual([]);
  });

  it("validates the initialize result against InitializeResult", () => {
    const checker = new SpecChecker("2025-11-25");
    const bad = initializeResult("2025-11-25");
    const { serverInfo: _, ...result } = bad.result;
    const problems = answer(checker, initialize("2025-11-25"), { ...bad, result });
    expect(problems).toEqual([
      'initialize result (InitializeResult) /result: missing required property "serverInfo"',
    ]);
  });

  it.each(["2024-11-05", "2025-06-18", "2025-11-25"])(
    "accepts a tools/list and tools/call exchange in %s",
    (rev) => {
      const checker = new SpecChecker(rev);
      expect(answer(checker, toolsList, toolsListResult)).toEqual([]);
      const result = toolsCallResult([{ type: "text", text: "3" }], { isError: false });
      expect(answer(checker, toolsCall, result)).toEqual([]);
    },
  );

  it("reports a text content block without text", () => {
    const checker = new SpecChecker("2025-11-25");
    const problems = answer(checker, toolsCall, toolsCallResult([{ type: "text" }]));
    expect(problems).toEqual([
      'tools/call result (CallToolResult) /result/content/0: missing required property "text"',
    ]);
  });

  it("reports an image content block without mimeType (2024-11-05)", () => {
    const checker = new SpecChecker("2024-11-05");
    const problems = answer(
      checker,
      toolsCall,
      toolsCallResult([
        { type: "text", text: "ok" },
        { type: "image", data: "aGVsbG8=" },
      ]),
    );
    expect(problems).toEqual([
      'tools/call result (CallToolResult) /result/content/1: missing required property "mimeType"',
    ]);
  });

  it("reports content blocks of unknown type and wrongly typed fields", () => {
    const checker = new SpecChecker("2025-06-18");
    const problems = answer(
      checker,
      toolsCall,
      toolsCallResult([{ type: "markdown", text: "x" }], { isError: "no" }),
    );
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(
      /\/result\/content\/0: type "markdown" matches none of TextContent \| ImageContent/,
    );
    expect(problems[1]).toBe(
      "tools/call result (CallToolResult) /result/isError: must be boolean (got string)",
    );
  });

  it("checks the uri and byte formats leniently", () => {
    const checker = new SpecChecker("2025-06-18");
    const read = { jsonrpc: "2.0", id: 5, method: "resources/read", params: { uri: "test://static/1" } };
    const contents = (uri: string, blob: string) => ({
      jsonrpc: "2.0",
      id: 5,
      result: { contents: [{ uri, blob }] },
    });
    expect(answer(checker, read, contents("file:///tmp/a.bin", "aGVsbG8="))).toEqual([]);
    expect(answer(checker, read, contents("/tmp/a.bin", "not base64!"))).toEqual([
      "resources/read result (ReadResourceResult) /result/contents/0: matches none of TextResourceContents | BlobResourceContents; closest is BlobResourceContents, which says:",
      'resources/read result (ReadResourceResult) /result/contents/0/uri: must be a valid uri (got "/tmp/a.bin")',
      'resources/read result (ReadResourceResult) /result/contents/0/blob: must be a valid byte (got "not base64!")',
    ]);
  });

  it("checks each result against the definition of the method that was requested", () => {
    const checker = new SpecChecker("2025-11-25");
    // A CallToolResult is not a ListToolsResult.
    const problems = answer(checker, toolsList, { jsonrpc: "2.0", id: 2, result: { content: [] } });
    expect(problems).toEqual([
      'tools/list result (ListToolsResult) /result: missing required property "tools"',
    ]);
    // ping answers with EmptyResult, in both directions.
    expect(
      answer(checker, { jsonrpc: "2.0", id: 9, method: "ping" }, { jsonrpc: "2.0", id: 9, result: {} }),
    ).toEqual([]);
    expect(checker.check({ jsonrpc: "2.0", id: "s1", method: "ping" }, "server")).toEqual([]);
    expect(checker.check({ jsonrpc: "2.0", id: "s1", result: {} }, "client")).toEqual([]);
  });

  it("reports malformed requests and envelopes", () => {
    const checker = new SpecChecker("2025-11-25");
    expect(
      checker.check({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { arguments: {} } }, "client"),
    ).toEqual(['CallToolRequest /params: missing required property "name"']);
    expect(checker.check({ id: 2, method: "tools/list" }, "client")).toEqual([
      'JSONRPCRequest (message): missing required property "jsonrpc"',
      'ListToolsRequest (message): missing required property "jsonrpc"',
    ]);
    expect(checker.check({ jsonrpc: "2.0", id: 3, method: "tools/list" }, "client")).toEqual([]);
    expect(checker.check({ jsonrpc: "2.0", id: 3, method: "tools/list" }, "client")).toEqual([
      "request id 3 is already used by an unanswered client tools/list request",
    ]);
    expect(checker.check("hello", "client")).toEqual([
      "not a JSON-RPC message: expected an object, got string",
    ]);
    expect(checker.check({ jsonrpc: "2.0", id: 4 }, "server")).toEqual([
      "not a JSON-RPC message: no method, result or error",
    ]);
  });

  it("reports a method the sending side does not have", () => {
    const checker = new SpecChecker("2025-11-25");
    expect(
      checker.check({ jsonrpc: "2.0", id: 1, method: "tools/frobnicate", params: {} }, "client"),
    ).toEqual(["method tools/frobnicate is not a client request in 2025-11-25"]);
    expect(checker.check({ jsonrpc: "2.0", id: 2, method: "tools/list" }, "server")).toEqual([
      "method tools/list is not a server request in 2025-11-25 (it is a client request)",
    ]);
    const log = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hi" } };
    expect(checker.check(log, "server")).toEqual([]);
    expect(checker.check(log, "client")).toEqual([
      "method notifications/message is not a client notification in 2025-11-25 (it is a server notification)",
    ]);
  });

  it("knows elicitation/create only from 2025-06-18 on", () => {
    const elicit = {
      jsonrpc: "2.0",
      id: 7,
      method: "elicitation/create",
      params: {
        message: "Your name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      },
    };
    expect(new SpecChecker("2024-11-05").check(elicit, "server")).toEqual([
      "method elicitation/create is not a server request in 2024-11-05",
    ]);
    const checker = new SpecChecker("2025-06-18");
    expect(checker.check(elicit, "server")).toEqual([]);
    expect(
      checker.check(
        { jsonrpc: "2.0", id: 7, result: { action: "accept", content: { name: "Ada" } } },
        "client",
      ),
    ).toEqual([]);
    expect(checker.check({ ...elicit, id: 8 }, "server")).toEqual([]);
    expect(checker.check({ jsonrpc: "2.0", id: 8, result: { action: "maybe" } }, "client")).toEqual([
      'elicitation/create result (ElicitResult) /result/action: must be one of "accept", "cancel", "decline" (got "maybe")',
    ]);
  });

  it("reports responses to ids nobody requested", () => {
    const checker = new SpecChecker("2025-11-25");
    expect(checker.check({ jsonrpc: "2.0", id: 42, result: {} }, "server")).toEqual([
      "response to id 42, which no client request is waiting for",
    ]);
    // Ids are tracked per direction: a server answering its own request is wrong too.
    expect(checker.check({ jsonrpc: "2.0", id: "p", method: "ping" }, "server")).toEqual([]);
    expect(checker.check({ jsonrpc: "2.0", id: "p", result: {} }, "server")).toEqual([
      'response to id "p", which no client request is waiting for',
    ]);
    expect(checker.check({ jsonrpc: "2.0", id: "p", result: {} }, "client")).toEqual([]);
    // ... and answered only once.
    expect(checker.check({ jsonrpc: "2.0", id: "p", result: {} }, "client")).toEqual([
      'response to id "p", which no server request is waiting for',
    ]);
    // 1 and "1" are different ids.
    expect(checker.check({ jsonrpc: "2.0", id: 1, method: "ping" }, "client")).toEqual([]);
    expect(checker.check({ jsonrpc: "2.0", id: "1", result: {} }, "server")).toEqual([
      'response to id "1", which no client request is waiting for',
    ]);
  });

  it("checks error responses by envelope only", () => {
    const checker = new SpecChecker("2024-11-05");
    const error = { jsonrpc: "2.0", id: 3, error: { code: -32602, message: "Unknown tool", data: { x: 1 } } };
    expect(answer(checker, toolsCall, error)).toEqual([]);
    expect(checker.check(error, "server")).toEqual([
      "error response to id 3, which no client request is waiting for",
    ]);
    expect(answer(checker, toolsCall, { jsonrpc: "2.0", id: 3, error: { code: "bad", message: 1 } })).toEqual(
      [
        "JSONRPCError /error/code: must be integer (got string)",
        "JSONRPCError /error/message: must be string (got integer)",
      ],
    );
    // 2025-11-25 allows an error without id (e.g. a parse error); 2024-11-05 does not.
    const parseError = { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } };
    expect(new SpecChecker("2025-11-25").check(parseError, "server")).toEqual([]);
    expect(checker.check(parseError, "server")).toEqual([
      'JSONRPCError (message): missing required property "id"',
    ]);
  });

  it("expects a CreateTaskResult for a task-augmented request (2025-11-25)", () => {
    const checker = new SpecChecker("2025-11-25");
    const call = { ...toolsCall, params: { ...toolsCall.params, task: { ttl: 60_000 } } };
    const task = {
      taskId: "t1",
      status: "working",
      createdAt: "2025-11-25T00:00:00Z",
      lastUpdatedAt: "2025-11-25T00:00:00Z",
      ttl: 60_000,
    };
    expect(answer(checker, call, { jsonrpc: "2.0", id: 3, result: { task } })).toEqual([]);
    expect(answer(checker, call, toolsCallResult([{ type: "text", text: "3" }]))).toEqual([
      'tools/call (task-augmented) result (CreateTaskResult) /result: missing required property "task"',
    ]);
  });

  it("allows batches only in 2025-03-26", () => {
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
    ];
    const checker = new SpecChecker("2025-03-26");
    expect(checker.check(batch, "client")).toEqual([]);
    expect(checker.check([{ jsonrpc: "2.0", id: 1, result: {} }], "server")).toEqual([]);
    expect(checker.check([], "client")).toEqual(["empty JSON-RPC batch"]);
    expect(new SpecChecker("2025-06-18").check(batch, "client")).toEqual([
      "JSON-RPC batches are not part of 2025-06-18",
    ]);
  });
});

withSpec("SpecChecker with 2026-07-28", () => {
  const examples = `${SPEC_DIR}2026-07-28/examples/`;
  const files = (definition: string): string[] =>
    readdirSync(`${examples}${definition}`)
      .filter((f) => f.endsWith(".json"))
      .sort();
  const load = (definition: string, file: string): Record<string, unknown> =>
    JSON.parse(readFileSync(`${examples}${definition}/${file}`, "utf8")) as Record<string, unknown>;
  const example = (definition: string): Record<string, unknown>[] =>
    files(definition).map((f) => load(definition, f));

  it("accepts the spec's example request/response pairs", () => {
    const checker = new SpecChecker("2026-07-28");
    const responses = readdirSync(examples).filter((d) => d.endsWith("ResultResponse"));
    expect(responses).toEqual(expect.arrayContaining(["CallToolResultResponse", "ListToolsResultResponse"]));
    const problems: Record<string, string[]> = {};
    for (const dir of responses) {
      const [request] = example(dir.replace(/ResultResponse$/, "Request"));
      for (const file of files(dir)) {
        const response = load(dir, file);
        expect(checker.check({ ...request, id: response.id }, "client"), dir).toEqual([]);
        const found = checker.check(response, "server");
        if (found.length > 0) problems[`${dir}/${file}`] = found;
      }
    }
    // Known inconsistency in the spec: this example omits ttlMs/cacheScope, which ReadResourceResult requires.
    // The raw schema lets it through only because ReadResourceResultResponse.result is
    // anyOf [InputRequiredResult, ReadResourceResult] and InputRequiredResult accepts any object with a
    // resultType; the checker picks the branch by resultType ("complete" here), so it is reported.
    expect(problems).toEqual({
      "ReadResourceResultResponse/read-resource-result-response.json": [
        'resources/read result (ReadResourceResult) /result: missing required property "cacheScope"',
        'resources/read result (ReadResourceResult) /result: missing required property "ttlMs"',
      ],
    });
  });

  it("accepts the spec's example notifications and input-required results", () => {
    const checker = new SpecChecker("2026-07-28");
    for (const dir of ["ProgressNotification", "LoggingMessageNotification", "ResourceUpdatedNotification"]) {
      for (const n of example(dir)) expect(checker.check(n, "server"), dir).toEqual([]);
    }
    for (const n of example("CancelledNotification")) expect(checker.check(n, "client")).toEqual([]);
    const [call] = example("CallToolRequest");
    for (const result of example("InputRequiredResult")) {
      expect(checker.check(call, "client")).toEqual([]);
      expect(checker.check({ jsonrpc: "2.0", id: call!.id, result }, "server")).toEqual([]);
    }
  });

  it("reports what 2026-07-28 dropped or now requires", () => {
    const checker = new SpecChecker("2026-07-28");
    expect(checker.check(initialize("2026-07-28"), "client")).toEqual([
      "method initialize is not a client request in 2026-07-28",
    ]);
    const [elicit] = example("ElicitRequest");
    expect(checker.check({ jsonrpc: "2.0", id: 5, ...elicit }, "server")).toEqual([
      "method elicitation/create is not a server request in 2026-07-28 (this revision defines no ServerRequest; " +
        "it is only sent inside an InputRequiredResult's inputRequests)",
    ]);
    const [call] = example("CallToolRequest");
    expect(checker.check(call, "client")).toEqual([]);
    expect(checker.check({ jsonrpc: "2.0", id: call!.id, result: { content: [] } }, "server")).toEqual([
      'tools/call result (CallToolResult) /result: missing required property "resultType"',
    ]);
  });
});

withSpec("MessageLog", () => {
  it("has no problems for a valid conversation", () => {
    const log = new MessageLog();
    log.record("client", initialize("2025-06-18"));
    log.record("server", initializeResult("2025-06-18"));
    log.record("client", initialized);
    log.record("client", toolsCall);
    log.record("server", toolsCallResult([{ type: "text", text: "3" }]));
    expect(log.problems("2025-06-18")).toEqual([]);
  });

  it("prefixes each problem with an excerpt of the offending message", () => {
    const log = new MessageLog();
    const long = "x".repeat(1000);
    log.record("client", toolsCall);
    log.record("server", toolsCallResult([{ type: "text" }, { type: "text", text: long }]));
    log.record("server", { jsonrpc: "2.0", id: 99, result: {} });
    const problems = log.problems("2025-11-25");
    expect(problems).toHaveLength(2);
    const [first, second] = problems as [string, string];
    expect(
      first.startsWith('#1 server→client {"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text"}'),
    ).toBe(true);
    expect(first).toContain(
      "…: tools/call result (CallToolResult) /result/content/0: missing required property",
    );
    expect(first.length).toBeLessThan(300 + 120);
    expect(second).toBe(
      '#2 server→client {"jsonrpc":"2.0","id":99,"result":{}}: response to id 99, which no client request is waiting for',
    );
    // The log can be replayed against another revision with a fresh checker.
    expect(log.problems("2024-11-05")).toHaveLength(2);
  });
});
