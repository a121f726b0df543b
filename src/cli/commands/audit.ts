/** `audit verify <file>`: checks a proxy audit log's hash chain and head file. */
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { verifyAuditLog } from "../../proxy/audit-verify.js";
import { type CliContext, examplesHelp } from "../shared/command.js";
import { UsageError } from "../shared/errors.js";
import { peerText } from "../shared/peer-text.js";

/** Exit code of a log that does not verify. */
const BROKEN = 1;

async function verify(file: string, options: { keyFile?: string }, context: CliContext): Promise<void> {
  let key: Buffer | undefined;
  if (options.keyFile !== undefined) {
    key = await readFile(options.keyFile).catch((error: Error) => {
      throw new UsageError(`--key-file: ${error.message}`);
    });
  }
  const result = await verifyAuditLog(file, key).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${file}: ${error.message}`);
  });
  if (result.ok) {
    process.stdout.write(`${file}: ok, ${peerText(result.message, "message")}\n`);
    return;
  }
  // The message may quote the log, whose lines name servers' tools.
  process.stderr.write(`mcpkit: ${file}: ${peerText(result.message, "message")}\n`);
  context.exitCode = BROKEN;
}

/** Adds `audit verify`. */
export function registerAuditCommand(program: Command, context: CliContext): void {
  const audit = program.command("audit").summary("check the audit log of mcpkit proxy");
  audit
    .command("verify")
    .summary("check an audit log's hash chain: exit 1 naming the first bad line")
    .description(
      "Checks that every line of a proxy audit log is intact and in place: each carries its number (seq) and the hash of the line before (prev); the head file beside the log (<file>.head) names the line count and the last hash, so a cut at the end is seen too. Exits 0 if the log verifies, 1 naming the first bad line, 2 if the file cannot be read.",
    )
    .argument("<file>", "the audit log (JSON lines), as written by mcpkit proxy --audit")
    .option("--key-file <file>", "the key the log was chained with (HMAC-SHA256), if any")
    .addHelpText(
      "after",
      examplesHelp([["mcpkit audit verify audit.jsonl", "ok, or the first line edited, removed or cut"]]),
    )
    .action((file: string, options: { keyFile?: string }) => verify(file, options, context));
}
