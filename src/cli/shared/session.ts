import { McpClient } from "../../client/client.js";
import { elicitationHandler } from "./elicit.js";
import { ConnectionError, describeError, Exit } from "./errors.js";
import { formatLog } from "./log-line.js";
import { type ClientCliOptions, pinnedRevision } from "./options.js";
import { peerText } from "./peer-text.js";
import { startupStatus } from "./startup.js";
import { clearStatus, note } from "./status.js";
import { mcpPathHint, refusedHint, resolveTarget, type ServerSpec, traceTarget } from "./target.js";
import { Tracer } from "./trace.js";

/** Everything a command needs while connected. */
export interface Session {
  client: McpClient;
  /** Aborted on Ctrl-C: pass it to every request. */
  signal: AbortSignal;
  options: ClientCliOptions;
  /** The per-request timeout in ms. */
  timeout: number;
  /**
   * The limit of a whole call in ms, a task's run included: `--timeout` when given on the command
   * line (a config file's `timeout` is per request, as in the hosts that write it); without it, a
   * task is waited for as long as it runs.
   */
  deadline: number | undefined;
}

/** Thrown when the user interrupts. */
class Interrupted extends Error {}

/** Rejects with `Interrupted` when `signal` aborts. */
function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    signal.addEventListener("abort", () => reject(new Interrupted()), { once: true });
  });
}

/**
 * Connects, runs `work`, closes. Logs go to stderr as they come; Ctrl-C cancels the request in flight
 * (exit 130). `timeoutIsDefault` lets a config file's `timeout` apply when `--timeout` was not given.
 */
export async function withClient(
  spec: ServerSpec,
  options: ClientCliOptions,
  timeoutIsDefault: boolean,
  work: (session: Session) => Promise<number>,
): Promise<number> {
  const pinned = pinnedRevision(options);
  const target = await resolveTarget(spec, options);
  const timeout = timeoutIsDefault && target.timeout ? target.timeout : options.timeout;
  const deadline = timeoutIsDefault ? undefined : options.timeout;
  const tracer =
    options.traceFile !== undefined
      ? new Tracer(options.traceFile)
      : options.trace
        ? new Tracer()
        : undefined;
  const controller = new AbortController();
  const interrupted = whenAborted(controller.signal);
  interrupted.catch(() => {});
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(Exit.Interrupted);
    controller.abort(new Interrupted("interrupted"));
    setTimeout(() => process.exit(Exit.Interrupted), 3000).unref();
  };
  process.on("SIGINT", onSigint);
  let client: McpClient | undefined;
  try {
    const canAsk = process.stdin.isTTY === true && process.stderr.isTTY === true;
    if (tracer) traceTarget(tracer, target);
    const command = "command" in target.connect ? target.connect.command : undefined;
    const stopStatus = startupStatus(
      `${command === undefined ? "connecting to" : "starting"} ${target.label}`,
      command,
      options.quiet,
    );
    const connecting = McpClient.connect({
      ...target.connect,
      handshakeTimeout: timeout,
      requestTimeout: timeout,
      elicitation: elicitationHandler(canAsk),
      ...(pinned ? { protocolVersion: pinned } : {}),
      ...(tracer ? { trace: tracer.trace } : {}),
      ...("command" in target.connect && options.verbose
        ? { onStderr: (line) => note(`[server] ${peerText(line, "message")}`) }
        : {}),
    });
    // Interrupted while connecting: close what may still come up (the process exits soon anyway).
    connecting.then(
      (late) => controller.signal.aborted && void late.close(),
      () => {},
    );
    try {
      client = await Promise.race([connecting, interrupted]);
    } catch (error) {
      if (error instanceof Interrupted) throw error;
      const hint = mcpPathHint(target, error) || refusedHint(target, error);
      throw new ConnectionError(`could not connect to ${target.label}: ${describeError(error)}${hint}`, {
        cause: error,
      });
    } finally {
      stopStatus();
    }
    if (pinned && client.protocolVersion !== pinned) {
      throw new ConnectionError(
        `${target.label} speaks protocol revision ${peerText(client.protocolVersion, "name")}, not ${pinned} (${options.protocol ? "--protocol" : "--protocol-version"})`,
      );
    }
    if (!options.quiet) {
      client.on("log", (entry) => note(formatLog(entry)));
      // Ask for logs (info and above unless --log-level says): stateless servers send none otherwise.
      if (client.capabilities.logging) {
        const asked = client.setLoggingLevel(options.logLevel ?? "info", { signal: controller.signal });
        await (options.logLevel ? asked : asked.catch(() => {}));
      } else if (options.logLevel)
        note("mcpkit: the server does not offer logging; --log-level has no effect");
    }
    return await Promise.race([
      work({ client, signal: controller.signal, options, timeout, deadline }),
      interrupted,
    ]);
  } catch (error) {
    if (error instanceof Interrupted || controller.signal.aborted) {
      clearStatus();
      note("mcpkit: interrupted");
      return Exit.Interrupted;
    }
    throw error;
  } finally {
    clearStatus();
    // Once interrupted the handler stays: the stdio reaper re-raises SIGINT when no one else listens.
    if (!controller.signal.aborted) process.off("SIGINT", onSigint);
    await client?.close().catch(() => {});
    tracer?.close();
  }
}
