import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
const tsc = join(root, "node_modules/typescript/bin/tsc");

// The README's server and client, the client starting that server instead of a filesystem server.
const SERVER = `import { McpServer } from "mcpkit/server";
import { evaluate } from "mcpkit/bundled";
import { z } from "zod";

const server = new McpServer({ name: "my-calculator", version: "1.0.0" }).tool(
  "calculator",
  {
    description: "Evaluate an arithmetic expression such as '2 + 3 * 4'",
    input: z.object({ expression: z.string() }),
  },
  ({ expression }) => \`\${expression} = \${evaluate(expression)}\`,
);

await server.serveStdio();
`;
const CLIENT = `import { McpClient } from "mcpkit/client";

const client = await McpClient.connect({
  command: process.execPath,
  args: [new URL("./server.js", import.meta.url).pathname],
});
console.log(client.serverInfo, client.protocolVersion);

for (const tool of await client.listTools()) console.log(tool.name, "-", tool.description);

const result = await client.callTool("calculator", { expression: "2 + 3 * 4" });
console.log(result.isError ? "tool failed:" : "content:", result.text());

await client.close();
`;

/** Runs tsc in the project; a failure carries tsc's diagnostics, which it prints to stdout. */
async function compile(config: string): Promise<void> {
  try {
    await run(process.execPath, [tsc, "-p", config], { cwd: project });
  } catch (error) {
    throw new Error(`tsc -p ${config} failed:\n${(error as { stdout?: string }).stdout ?? error}`);
  }
}

const tsconfig = (options: Record<string, unknown>) =>
  JSON.stringify({
    compilerOptions: { target: "ES2022", strict: true, types: ["node"], rootDir: "src", ...options },
    include: ["src"],
  });

/**
 * A consumer project with the `npm pack` tarball unpacked as node_modules/mcpkit and this
 * repository's installs of its dependencies and of zod (>= 4.2) linked beside it: no registry needed.
 */
let project: string;
beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "mcpkit-consumer-"));
  const modules = join(project, "node_modules");
  mkdirSync(join(modules, "mcpkit"), { recursive: true });
  // Packed as `npm publish` would: the built dist/ (npm test builds first) and the manifest as
  // prepack strips it, in a staging folder so the repository's own manifest is never touched.
  const stage = join(project, "stage");
  mkdirSync(stage);
  for (const file of ["package.json", "README.md", "CHANGELOG.md", "LICENSE"])
    cpSync(join(root, file), join(stage, file));
  cpSync(join(root, "dist"), join(stage, "dist"), { recursive: true });
  await run(process.execPath, [join(root, "scripts/publish-manifest.mjs"), "strip"], { cwd: stage });
  const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", project], {
    cwd: stage,
  });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  await run("tar", ["-xzf", join(project, filename), "-C", join(modules, "mcpkit"), "--strip-components=1"]);
  const packed = JSON.parse(readFileSync(join(modules, "mcpkit/package.json"), "utf8"));
  for (const name of [...Object.keys(packed.dependencies), "zod", "@types/node"]) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(root, "node_modules", name), join(modules, name), "dir");
  }
  mkdirSync(join(project, "src"));
  writeFileSync(join(project, "src/server.ts"), SERVER);
  writeFileSync(join(project, "src/client.ts"), CLIENT);
  writeFileSync(join(project, "package.json"), '{ "name": "consumer", "private": true, "type": "module" }\n');
  writeFileSync(join(project, "tsconfig.json"), tsconfig({ module: "nodenext", outDir: "out" }));
  writeFileSync(
    join(project, "tsconfig.bundler.json"),
    tsconfig({ module: "preserve", moduleResolution: "bundler", noEmit: true }),
  );
}, 120_000);
afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe("the packed package in a consumer project", () => {
  // The consumer installed none of the optional peers.
  it.each([
    ["mcpkit/redis", "@redis/client"],
    ["mcpkit/otel", "@opentelemetry/api"],
    ["mcpkit/ai-sdk", "ai"],
    ["mcpkit/langchain", "@langchain/core"],
  ])("importing %s without %s names the package to install", async (entry, peer) => {
    const failed = run(
      process.execPath,
      ["--input-type=module", "-e", `await import(${JSON.stringify(entry)})`],
      {
        cwd: project,
      },
    );
    await expect(failed).rejects.toMatchObject({
      stderr: expect.stringContaining(`MissingPeerError: ${entry} needs ${peer}: npm install ${peer}`),
    });
  });

  it("mcpkit serve --redis without @redis/client is a usage error naming the package", async () => {
    const cli = join(project, "node_modules/mcpkit/dist/cli/main.js");
    const failed = run(
      process.execPath,
      [cli, "serve", "calculator", "--http", "--port", "0", "--redis", "redis://127.0.0.1:9"],
      {
        cwd: project,
      },
    );
    await expect(failed).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--redis needs @redis/client: npm install @redis/client"),
    });
  });

  it("installs a manifest with no scripts for the consumer's npm to vet", () => {
    const installed = JSON.parse(readFileSync(join(project, "node_modules/mcpkit/package.json"), "utf8"));
    expect(installed.scripts).toBeUndefined();
    expect(installed.devDependencies).toBeUndefined();
  });

  it("type-checks the README's server and client with module bundler", async () => {
    await compile("tsconfig.bundler.json");
  }, 60_000);

  it("compiles them with module nodenext, and the client calls the server's tool", async () => {
    await compile("tsconfig.json");
    const { stdout } = await run(process.execPath, [join(project, "out/client.js")], { cwd: project });
    expect(stdout).toContain("calculator - Evaluate an arithmetic expression");
    expect(stdout).toContain("content: 2 + 3 * 4 = 14");
  }, 60_000);
});
