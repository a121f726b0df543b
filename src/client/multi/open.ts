import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { Tool } from "../../protocol/types/tools.js";
import { McpClient } from "../client.js";
import { type ConnectionSettings, clientOptionsFor } from "./client-options.js";
import type { ServerConfig } from "./config.js";

/** The error of a call to, or a connect of, a server whose connection was closed. */
export const closedError = (name: string): McpError =>
  new McpError(ErrorCode.ConnectionClosed, `The connection to server "${name}" is closed`);

/** What opening a connection needs of its owner. */
interface OpenHooks {
  /** Keeps a promise of work started, so closing can wait for it. */
  track(promise: Promise<unknown>): void;
  /** Whether the owner was closed meanwhile: what was opened is closed again. */
  closed(): boolean;
  /** A warning of the new client. */
  warning(message: string): void;
}

/**
 * Connects one configured server and lists its tools, both within `connectTimeout`. Rejects, and
 * leaves nothing running, if either fails or the owner closes meanwhile.
 */
export async function openClient(
  name: string,
  entry: ServerConfig,
  settings: ConnectionSettings,
  hooks: OpenHooks,
): Promise<{ client: McpClient; tools: Tool[] }> {
  const { connectTimeout } = settings;
  const config = settings.prepare ? settings.prepare(name, entry) : entry;
  const attempt = McpClient.connect(clientOptionsFor(name, config, settings));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`server "${name}" did not connect within ${connectTimeout} ms`)),
      connectTimeout,
    );
  });
  let client: McpClient;
  try {
    client = await Promise.race([attempt, timeout]);
  } catch (error) {
    // A connect that finishes after its timeout must not leave a server running.
    hooks.track(attempt.then((late) => late.close()).catch(() => {}));
    throw error;
  } finally {
    clearTimeout(timer);
  }
  client.on("warning", (message) => hooks.warning(message));
  try {
    if (hooks.closed()) throw closedError(name);
    const tools = await client.listTools({ timeout: connectTimeout });
    if (hooks.closed()) throw closedError(name);
    return { client, tools };
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
}
