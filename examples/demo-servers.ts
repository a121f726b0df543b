// The servers of the agent examples (agent.ts, langgraph.ts, ai-sdk.ts): the reference filesystem
// server over stdio, on a temporary folder holding three files, and the bundled calculator over
// Streamable HTTP, both held by one MultiServerClient.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCalculatorServer } from "mcpkit/bundled";
import { MultiServerClient } from "mcpkit/client";

export interface DemoServers {
  /** The folder the filesystem server may read. */
  dir: string;
  mcp: MultiServerClient;
  /** Closes the servers (no process is left) and removes the folder. */
  close(): Promise<void>;
}

export async function startDemoServers(): Promise<DemoServers> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "mcpkit-example-")));
  for (const name of ["notes.txt", "plan.md", "data.json"]) writeFileSync(join(dir, name), `${name}\n`);
  // The reference server is a dev dependency; `npx -y @modelcontextprotocol/server-filesystem` works too.
  const filesystem = createRequire(import.meta.url).resolve(
    "@modelcontextprotocol/server-filesystem/dist/index.js",
  );
  // Usually another process: `npx mcpkit serve calculator --http --port 3000`.
  const calculator = await createCalculatorServer().serveHttp();

  const mcp = await MultiServerClient.connect({
    mcpServers: {
      fs: { command: process.execPath, args: [filesystem, dir] },
      math: { url: calculator.url },
    },
  });
  for (const { server, error } of mcp.failures) console.error(`${server} failed: ${error.message}`);
  return {
    dir,
    mcp,
    async close() {
      await mcp.close();
      await calculator.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** How many files a `list_directory` answer names (its `[FILE] name` lines). */
export function countFiles(listing: string): number {
  return listing.split("\n").filter((line) => line.startsWith("[FILE]")).length;
}
