/** `read <uri>`: read a resource. */
import type { Command } from "commander";
import type { McpClient } from "../../client/client.js";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { ResourceContents } from "../../protocol/types/content.js";
import { addMetaOption, type CliContext, clientCommand, print, printResult } from "../shared/command.js";
import { renderContents } from "../shared/content.js";
import { describeError, Exit, UsageError } from "../shared/errors.js";
import { formatSize } from "../shared/format.js";
import { peerText } from "../shared/peer-text.js";
import type { Session } from "../shared/session.js";
import { closest } from "../shared/suggest.js";

interface ReadOptions {
  raw?: boolean;
  meta?: boolean;
}

/** How servers refuse an unknown URI: -32002, or -32602 (2026-07-28 and some older servers). */
const UNKNOWN = new Set<number>([ErrorCode.ResourceNotFound, ErrorCode.InvalidParams]);

/** The refusal of an unknown URI, with the listed resource closest to it if one is. */
async function unknownResource(client: McpClient, uri: string, error: unknown, signal: AbortSignal) {
  if (!(error instanceof McpError) || !UNKNOWN.has(error.code)) return error;
  const listed = await client.listResources({ signal }).catch(() => []);
  const match = closest(
    uri,
    listed.map((r) => r.uri),
  );
  if (match === undefined) return error;
  return new UsageError(`${describeError(error)}; did you mean ${peerText(match, "message")}?`, {
    cause: error,
  });
}

/** Where `--raw` writes: stdout, or a stand-in in tests. */
interface RawOutput {
  isTTY?: boolean;
  write(chunk: string | Uint8Array): unknown;
}

/**
 * `--raw`: the contents alone, byte for byte, when stdout is a file or a pipe. On a terminal the
 * text is written inert (its control sequences as visible escapes), and binary contents are
 * refused before anything is written: bytes from a server would drive the terminal.
 */
export function writeRaw(contents: ResourceContents[], output: RawOutput): void {
  if (output.isTTY) {
    const blob = contents.find((item) => "blob" in item);
    if (blob && "blob" in blob) {
      const size = typeof blob.blob === "string" ? formatSize(Buffer.byteLength(blob.blob, "base64")) : "?";
      throw new UsageError(
        `read --raw: ${peerText(blob.uri, "message")} is binary (${size}): redirect stdout to a file (> file), or use --json`,
      );
    }
  }
  for (const item of contents) {
    if ("blob" in item) output.write(Buffer.from(String(item.blob), "base64"));
    else if (typeof item.text === "string")
      output.write(output.isTTY ? peerText(item.text, "content") : item.text);
  }
}

async function read(
  { client, signal, timeout }: Session,
  [uri]: string[],
  options: ReadOptions & Session["options"],
) {
  if (!client.capabilities.resources) throw new UsageError("the server does not offer resources");
  const result = await client.readResource(uri!, { signal, timeout }).catch(async (error: unknown) => {
    throw await unknownResource(client, uri!, error, signal);
  });
  if (options.json) {
    printResult(result, options.meta);
    return Exit.Ok;
  }
  const contents = result.contents ?? [];
  if (options.raw) {
    writeRaw(contents, process.stdout);
    return Exit.Ok;
  }
  const full = options.full === true;
  print(
    contents.length > 0 ? contents.map((item) => renderContents(item, full)).join("\n\n") : "(no contents)",
  );
  return Exit.Ok;
}

export function registerReadCommand(program: Command, context: CliContext): void {
  clientCommand<ReadOptions>(program, context, {
    name: "read",
    operands: "<uri>",
    count: { min: 1, max: 1 },
    summary: "Read a resource",
    details: `Each part of the contents is shown under [mime type] uri: text as it is (truncated
unless --full), binary data summarised by size. --raw writes the contents alone: text as is,
binary data decoded, for redirecting to a file (on a terminal, text is shown with its control
characters escaped, and binary contents are refused). A resource the server does not know exits
with 2. List resources and templates with \`mcpkit resources\`.`,
    examples: [
      [
        "mcpkit read demo://resource/static/document/features.md -- npx -y @modelcontextprotocol/server-everything",
        "a text resource",
      ],
      [
        "mcpkit read test://static-binary --raw -- mcpkit serve everything > image.png",
        "binary contents to a file",
      ],
      ["mcpkit read test://template/42/data --json http://localhost:3000/mcp", "a templated URI, as JSON"],
    ],
    configure: (command) =>
      addMetaOption(command.option("--raw", "write only the contents (binary decoded) to stdout")),
    run: read,
  });
}
