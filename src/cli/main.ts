#!/usr/bin/env node
import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import { BUNDLED_SERVERS } from "../servers/index.js";

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

const HELP = `mcpkit ${version} — Model Context Protocol toolkit

Usage:
  mcpkit serve <server> [--http [--port N] [--host H]]
                            run a bundled server over stdio, or over Streamable HTTP
                            (with the legacy HTTP+SSE transport at /sse beside it)
  mcpkit --version          print the version
  mcpkit --help             print this help

Bundled servers:
${Object.entries(BUNDLED_SERVERS)
  .map(([name, { description }]) => `  ${name.padEnd(22)}  ${description}`)
  .join("\n")}

Examples:
  mcpkit serve calculator
  mcpkit serve everything --http --port 3000
  npx @modelcontextprotocol/inspector mcpkit serve calculator
`;

/** Exit codes: 0 ok, 2 usage error. */
async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
        http: { type: "boolean" },
        port: { type: "string" },
        host: { type: "string" },
      },
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
    if (!values.http) {
      await server.create().serveStdio();
      return -1;
    }
    const port = Number(values.port ?? 3000);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      process.stderr.write(
        `mcpkit serve: --port must be a port number, not ${JSON.stringify(values.port)}\n`,
      );
      return 2;
    }
    const handle = await server
      .create()
      .serveHttp({ port, host: values.host as string | undefined, legacySse: true });
    process.stderr.write(`mcpkit: ${name} listening on ${handle.url}\n`);
    const stop = () => void handle.close().then(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
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
