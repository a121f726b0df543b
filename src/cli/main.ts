#!/usr/bin/env node
import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import { BUNDLED_SERVERS } from "../servers/index.js";

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

const HELP = `mcpkit ${version} — Model Context Protocol toolkit

Usage:
  mcpkit serve <server>     run a bundled server over stdio
  mcpkit --version          print the version
  mcpkit --help             print this help

Bundled servers:
${Object.entries(BUNDLED_SERVERS)
  .map(([name, { description }]) => `  ${name.padEnd(22)}  ${description}`)
  .join("\n")}

Examples:
  mcpkit serve calculator
  npx @modelcontextprotocol/inspector mcpkit serve calculator
`;

/** Exit codes: 0 ok, 2 usage error. */
async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { help: { type: "boolean", short: "h" }, version: { type: "boolean", short: "v" } },
    });
  } catch (error) {
    process.stderr.write(`mcpkit: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  const [command, name] = positionals;
  if (values.help || command === undefined) {
    process.stdout.write(HELP);
    return 0;
  }
  if (command === "serve") {
    const server = name === undefined ? undefined : BUNDLED_SERVERS[name];
    if (!server) {
      process.stderr.write(`mcpkit serve: unknown server ${JSON.stringify(name ?? "")}\n\n${HELP}`);
      return 2;
    }
    await server.create().serveStdio();
    return -1;
  }
  process.stderr.write(`mcpkit: unknown command ${JSON.stringify(command)}\n\n${HELP}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`mcpkit: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
