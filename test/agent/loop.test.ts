/**
 * The agent loop and the OpenAI-compatible model over the scripted HTTP server, with small local
 * tools: parallel calls, failures the model is told about, HTTP errors, configuration.
 */
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Agent, ChatModelError, OpenAIChatModel } from "../../src/agent/index.js";
import { type AgentTool, localTool, type ToolOutput } from "../../src/client/index.js";
import { type ScriptedOpenAIServer, startScriptedOpenAI, toolResults } from "../fixtures/openai-server.js";

const servers: ScriptedOpenAIServer[] = [];
async function scripted(...args: Parameters<typeof startScriptedOpenAI>): Promise<ScriptedOpenAIServer> {
  const server = await startScriptedOpenAI(...args);
  servers.push(server);
  return server;
}
afterAll(() => Promise.all(servers.map((server) => server.close())));
afterEach(() => vi.unstubAllEnvs());

const modelFor = (server: ScriptedOpenAIServer) =>
  new OpenAIChatModel({ model: "m", baseURL: server.baseURL, apiKey: "k" });

const output = (text: string, isError = false): ToolOutput => ({
  text,
  content: [{ type: "text", text }],
  isError,
});

function local(
  name: string,
  run: (args: Record<string, unknown>) => Promise<ToolOutput> | ToolOutput,
): AgentTool {
  return {
    name,
    description: `The ${name} tool`,
    inputSchema: { type: "object", properties: { x: { type: "number" } } },
    invoke: async (args) => run(args),
  };
}

describe("the loop", () => {
  it("runs the tool calls of one step in parallel and answers each by its id", async () => {
    // Each call waits until both have started: run one after the other, they would never finish.
    let started = 0;
    let bothStarted!: () => void;
    const barrier = new Promise<void>((resolve) => (bothStarted = resolve));
    const double = localTool({
      name: "double",
      description: "Doubles a number",
      input: z.object({ x: z.number() }),
      run: async ({ x }) => {
        if (++started === 2) bothStarted();
        await barrier;
        return String(x * 2);
      },
    });
    const openai = await scripted([
      {
        toolCalls: [
          { id: "a", name: "double", arguments: { x: 2 } },
          { id: "b", name: "double", arguments: { x: 5 } },
        ],
      },
      (request) => {
        const results = toolResults(request);
        return { content: `${results.get("a")} and ${results.get("b")}` };
      },
    ]);
    const result = await new Agent({ model: modelFor(openai), tools: [double] }).run("double 2 and 5");
    expect(result.output).toBe("4 and 10");
    expect(result.steps[0]!.toolResults.map((r) => r.message.toolCallId)).toEqual(["a", "b"]);
    const fed = openai.requests[1]!.body.messages.slice(-2);
    expect(fed).toEqual([
      { role: "tool", tool_call_id: "a", content: "4" },
      { role: "tool", tool_call_id: "b", content: "10" },
    ]);
  });

  it("tells the model about a thrown failure, an unknown tool and arguments that are not a JSON object", async () => {
    const boom = local("boom", () => {
      throw new Error("the disk is on fire");
    });
    const strict = localTool({
      name: "strict",
      description: "Fails, and throws its failure",
      throwOnToolError: true,
      run: () => {
        throw new Error("no such user");
      },
    });
    const openai = await scripted([
      {
        toolCalls: [
          { id: "1", name: "boom", arguments: {} },
          { id: "2", name: "nope", arguments: {} },
          { id: "3", name: "boom", arguments: "{not json" },
          { id: "4", name: "boom", arguments: "[1]" },
          { id: "5", name: "strict", arguments: {} },
        ],
      },
      { content: "done" },
    ]);
    const result = await new Agent({ model: modelFor(openai), tools: [boom, strict] }).run("go");
    expect(result.output).toBe("done");
    const sent = [...toolResults(openai.requests[1]!.body).values()];
    expect(sent[0]).toBe('Error: Tool "boom" failed: the disk is on fire');
    expect(sent[1]).toBe('Error: Unknown tool "nope". The available tools are: boom, strict.');
    expect(sent[2]).toMatch(
      /^Error: The arguments for tool "boom" are not valid JSON \(.+\)\. Send a JSON object\.$/,
    );
    expect(sent[3]).toBe('Error: The arguments for tool "boom" must be a JSON object, not an array.');
    // A ToolError (throwOnToolError) carries the tool's own output: the model reads that.
    expect(sent[4]).toBe("Error: no such user");
    const records = result.steps[0]!.toolResults;
    expect(records.every((r) => r.message.isError)).toBe(true);
    expect((records[0]!.error as Error).message).toBe("the disk is on fire");
    expect(records[4]!.output).toMatchObject({ isError: true, text: "no such user" });
  });

  it("continues a conversation from a previous result's messages", async () => {
    const openai = await scripted([{ content: "first" }, { content: "second" }]);
    const agent = new Agent({ model: modelFor(openai), system: "Be brief." });
    const first = await agent.run("one");
    const second = await agent.run([...first.messages, { role: "user", content: "two" }]);
    expect(second.output).toBe("second");
    expect(openai.requests[1]!.body.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "one" },
      { role: "assistant", content: "first" },
      { role: "user", content: "two" },
    ]);
    expect(openai.requests[1]!.body.tools).toBeUndefined();
  });

  it("refuses two tools with the same name and a maxSteps below 1", () => {
    const model = new OpenAIChatModel({ model: "m", baseURL: "http://127.0.0.1:9/v1" });
    const t = local("t", () => output(""));
    expect(() => new Agent({ model, tools: [t, t] })).toThrow('Two tools are named "t"');
    expect(() => new Agent({ model, maxSteps: 0 })).toThrow("maxSteps must be a positive integer");
  });
});

describe("OpenAIChatModel", () => {
  it("reports an HTTP failure with the status and the start of the body", async () => {
    const body = JSON.stringify({
      error: { message: "Incorrect API key provided", type: "invalid_request_error" },
    });
    const openai = await scripted([{ status: 401, body }]);
    const error = await modelFor(openai)
      .complete({ messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatModelError);
    expect((error as ChatModelError).status).toBe(401);
    expect((error as ChatModelError).body).toBe(body);
    expect((error as Error).message).toBe(
      `POST ${openai.baseURL}/chat/completions answered 401 Unauthorized: ${body}`,
    );
  });

  it("cuts a long error body and fails the agent run with it", async () => {
    const openai = await scripted([{ status: 500, body: "x".repeat(5000) }]);
    const error = await new Agent({ model: modelFor(openai) }).run("hi").catch((e: unknown) => e);
    expect((error as ChatModelError).status).toBe(500);
    expect((error as Error).message).toMatch(
      /answered 500 Internal Server Error: x{1000}… \(5000 characters\)$/,
    );
  });

  it("says when the server cannot be reached, and when it answers without a message", async () => {
    const gone = await scripted([]);
    await gone.close(); // nothing listens on its port any more
    const model = modelFor(gone);
    const error = await model.complete({ messages: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatModelError);
    const port = new URL(gone.baseURL).port;
    expect((error as Error).message).toBe(
      `Cannot reach ${gone.baseURL}/chat/completions: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    expect((error as Error).cause).toBeInstanceOf(TypeError); // fetch's own error, kept as the cause

    const openai = await scripted([{ status: 200, body: '{"error":{"message":"model overloaded"}}' }]);
    const empty = await modelFor(openai)
      .complete({ messages: [] })
      .catch((e: unknown) => e);
    expect((empty as Error).message).toMatch(/answered without a message: model overloaded/);
  });

  it("times out a request that gets no answer, and rejects with the abort reason when aborted", async () => {
    const openai = await scripted([{ hang: true }, { hang: true }]);
    const slow = new OpenAIChatModel({ model: "m", baseURL: openai.baseURL, timeout: 100 });
    const timedOut = await slow.complete({ messages: [] }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(ChatModelError);
    expect((timedOut as Error).message).toBe(
      `POST ${openai.baseURL}/chat/completions timed out after 100 ms`,
    );

    const controller = new AbortController();
    const pending = modelFor(openai)
      .complete({ messages: [] }, { signal: controller.signal })
      .catch((e: unknown) => e);
    controller.abort(new Error("user cancelled"));
    expect(((await pending) as Error).message).toBe("user cancelled");
  });

  it("takes the base URL, key and model from the environment", async () => {
    const openai = await scripted([{ content: "from env" }]);
    vi.stubEnv("OPENAI_BASE_URL", `${openai.baseURL}/`);
    vi.stubEnv("OPENAI_API_KEY", "sk-env");
    vi.stubEnv("OPENAI_MODEL", "env-model");
    const model = new OpenAIChatModel();
    const response = await model.complete({ messages: [{ role: "user", content: "hi" }] });
    expect(response.message).toEqual({ role: "assistant", content: "from env" });
    expect(response.finishReason).toBe("stop");
    expect(openai.requests[0]!.headers.authorization).toBe("Bearer sk-env");
    expect(openai.requests[0]!.body.model).toBe("env-model");
  });

  it("needs a model name, and a key for api.openai.com", () => {
    vi.stubEnv("OPENAI_MODEL", "");
    vi.stubEnv("OPENAI_API_KEY", "");
    vi.stubEnv("OPENAI_BASE_URL", "");
    expect(() => new OpenAIChatModel()).toThrow("needs a model name");
    expect(() => new OpenAIChatModel({ model: "gpt-4o-mini" })).toThrow(
      "needs an API key for api.openai.com",
    );
    expect(new OpenAIChatModel({ model: "llama3", baseURL: "http://localhost:11434/v1" }).endpoint).toBe(
      "http://localhost:11434/v1/chat/completions",
    );
  });

  it("adapts tool schemas for OpenAI: $ref inlined, $schema dropped", async () => {
    const openai = await scripted([{ content: "ok" }]);
    const parameters = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { where: { $ref: "#/$defs/place" } },
      required: ["where"],
      $defs: { place: { type: "object", properties: { city: { type: "string" } } } },
    };
    await modelFor(openai).complete({ messages: [], tools: [{ name: "t", description: "d", parameters }] });
    expect(openai.requests[0]!.body.tools![0]!.function.parameters).toEqual({
      type: "object",
      properties: { where: { type: "object", properties: { city: { type: "string" } } } },
      required: ["where"],
    });
  });

  it("sends the options it is given", async () => {
    const openai = await scripted([{ content: "ok" }]);
    const model = new OpenAIChatModel({
      model: "m",
      baseURL: openai.baseURL,
      temperature: 0,
      maxTokens: 50,
      parallelToolCalls: false,
      headers: { "x-trace": "t1" },
      extraBody: { seed: 7 },
    });
    await model.complete({
      messages: [{ role: "user", content: "hi" }],
      tools: [{ name: "t", description: "d", parameters: { type: "object", properties: {} } }],
    });
    const { body, headers } = openai.requests[0]!;
    expect(body).toMatchObject({ temperature: 0, max_tokens: 50, parallel_tool_calls: false, seed: 7 });
    expect(body.tools).toEqual([
      {
        type: "function",
        function: { name: "t", description: "d", parameters: { type: "object", properties: {} } },
      },
    ]);
    expect(headers["x-trace"]).toBe("t1");
    expect(headers.authorization).toBeUndefined();
  });
});
