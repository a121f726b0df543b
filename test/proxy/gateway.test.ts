/**
 * `mcpkit proxy --config gateway.json` as a policy gateway, a real process in front of a fixture
 * server that counts the calls reaching it: approval by elicitation (accepted runs, declined never
 * reaches the upstream), argument constraints, renames and description overrides, untrusted
 * annotations, and the hash-chained audit log that `mcpkit audit verify` checks. Callers: the
 * official SDK v1 client (2025-11-25 session) and mcpkit's client (stateless 2026-07-28).
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { CLI, type ProxyProcess, ROOT, startProxy } from "./helpers.js";

const COUNTER = join(ROOT, "test/fixtures/counter-server.js");

let dir: string;
let proxy: ProxyProcess;
let answer: "accept" | "decline" | "cancel" = "accept";
const asked: string[] = [];

const counted = async () =>
  (await readFile(join(dir, "calls"), "utf8").catch(() => "")).split("\n").filter(Boolean).length;

/** The text of a result's blocks. */
const textOf = (result: Record<string, unknown>) =>
  (result.content as { type: string; text?: string }[]).map((block) => block.text ?? "").join("\n");

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpkit-gateway-"));
  const config = {
    mcpServers: {
      bank: { command: process.execPath, args: [COUNTER], env: { COUNTER_FILE: join(dir, "calls") } },
    },
    policy: [
      {
        tools: "bank/transfer",
        approval: true,
        arguments: { properties: { amount: { type: "number", maximum: 100 } } },
      },
      { tools: "bank/balance", approval: "unless-read-only" },
    ],
    tools: { "bank/transfer": { name: "send_money", description: "Sends money, once a person approves" } },
    audit: "audit.jsonl",
  };
  await writeFile(join(dir, "gateway.json"), JSON.stringify(config));
  proxy = await startProxy(["--config", join(dir, "gateway.json"), "--port", "0"]);
}, 60_000);

afterAll(async () => {
  await proxy?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("mcpkit proxy --config gateway.json, the official SDK v1 client (2025-11-25)", () => {
  let client: ClientV1;
  beforeAll(async () => {
    client = new ClientV1({ name: "gateway-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return answer === "accept" ? { action: "accept", content: {} } : { action: answer };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
  });
  afterAll(() => client?.close());

  it("lists the tool renamed and described anew, and drops an untrusted server's hints", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    expect(names).toEqual(["bank__balance", "send_money"]);
    const send = tools.find((tool) => tool.name === "send_money")!;
    expect(send.description).toBe("Sends money, once a person approves");
    expect(send.annotations?.readOnlyHint).toBeUndefined();
  });

  it("runs an approved call once the person accepts, showing the tool and its arguments", async () => {
    answer = "accept";
    const before = await counted();
    const result = await client.callTool({ name: "send_money", arguments: { to: "bob", amount: 5 } });
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toBe("sent 5 to bob");
    expect(await counted()).toBe(before + 1);
    expect(asked.at(-1)).toContain("send_money (transfer on bank)");
    expect(asked.at(-1)).toContain('"amount": 5');
  });

  it("a declined or cancelled approval is an isError result, and the upstream is never called", async () => {
    const before = await counted();
    for (const action of ["decline", "cancel"] as const) {
      answer = action;
      const result = await client.callTool({ name: "send_money", arguments: { to: "eve", amount: 7 } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/declined|cancelled/);
    }
    expect(await counted()).toBe(before);
  });

  it("arguments the policy refuses are an isError result, checked before anyone is asked", async () => {
    answer = "accept";
    const before = await counted();
    const questions = asked.length;
    const result = await client.callTool({ name: "send_money", arguments: { to: "eve", amount: 500 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/break the gateway's policy: .*amount.*100/);
    expect(asked.length).toBe(questions);
    expect(await counted()).toBe(before);
  });

  it("an untrusted readOnlyHint does not skip approval", async () => {
    answer = "decline";
    const result = await client.callTool({ name: "bank__balance", arguments: {} });
    expect(result.isError).toBe(true);
    expect(asked.at(-1)).toContain("bank__balance");
  });
});

describe("mcpkit proxy --config gateway.json, mcpkit's client (stateless 2026-07-28)", () => {
  let client: McpClient;
  beforeAll(async () => {
    client = await McpClient.connect({
      url: proxy.url,
      protocolVersion: "2026-07-28",
      elicitation: (params) => {
        asked.push(params.message);
        return answer === "accept" ? { action: "accept", content: {} } : { action: answer };
      },
    });
  });
  afterAll(() => client?.close());

  it("approval is an input request: accepted runs the call once, declined never reaches the upstream", async () => {
    answer = "accept";
    const before = await counted();
    expect((await client.callTool("send_money", { to: "ann", amount: 1 })).text()).toBe("sent 1 to ann");
    expect(await counted()).toBe(before + 1);
    answer = "decline";
    const refused = await client.callTool("send_money", { to: "ann", amount: 2 });
    expect(refused.isError).toBe(true);
    expect(await counted()).toBe(before + 1);
  });
});

describe("the audit log of the gateway, and mcpkit audit verify", () => {
  const verify = (file: string) =>
    spawnSync(process.execPath, [CLI, "audit", "verify", file], { encoding: "utf8", cwd: ROOT });

  it("one chained line per call, with the outcome, the size, and never the arguments", async () => {
    const lines = (await readFile(join(dir, "audit.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.seq)).toEqual(lines.map((_, i) => i + 1));
    const outcomes = lines.map((line) => `${line.tool} ${line.outcome}`);
    expect(outcomes).toEqual([
      "transfer ok",
      "transfer denied",
      "transfer denied",
      "transfer denied",
      "balance denied",
      "transfer ok",
      "transfer denied",
    ]);
    expect(lines[0]).toMatchObject({ server: "bank", resultSize: expect.any(Number) });
    expect(await readFile(join(dir, "audit.jsonl"), "utf8")).not.toContain("bob");
  });

  // Six runs of the CLI, one after another: a bound for a loaded machine.
  it("an intact log passes; an edited, removed or cut line fails naming the first bad line", async () => {
    // Stopped, the proxy has written the head for the last line (while it runs, the head may lag).
    expect(await proxy.stop()).toBe(0);
    const file = join(dir, "audit.jsonl");
    const ok = verify(file);
    expect(ok.stderr).toBe("");
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain("7 lines verified, head included");

    const text = await readFile(file, "utf8");
    const head = await readFile(`${file}.head`, "utf8");
    const lines = text.split("\n");
    const copy = async (name: string, body: string) => {
      await writeFile(join(dir, name), body);
      await writeFile(join(dir, `${name}.head`), head);
      return join(dir, name);
    };
    const edited = verify(await copy("edited.jsonl", text.replace('"outcome":"denied"', '"outcome":"ok"')));
    expect(edited.status).toBe(1);
    expect(edited.stderr).toContain("line 3:");
    const removed = verify(await copy("removed.jsonl", [...lines.slice(0, 3), ...lines.slice(4)].join("\n")));
    expect(removed.status).toBe(1);
    expect(removed.stderr).toContain("line 4:");
    const cut = verify(await copy("cut.jsonl", `${lines.slice(0, 5).join("\n")}\n`));
    expect(cut.status).toBe(1);
    expect(cut.stderr).toContain("line 6: missing");
    const lastEdited = verify(
      await copy("last.jsonl", text.replace(/"durationMs":\d+(?=[^\n]*\n$)/, '"durationMs":99999')),
    );
    expect(lastEdited.status).toBe(1);
    expect(lastEdited.stderr).toContain("line 7:");
  }, 120_000);
});
