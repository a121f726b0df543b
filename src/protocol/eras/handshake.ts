import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { Peer } from "../engine/peer.js";
import { LATEST_LEGACY_VERSION, LEGACY_VERSIONS } from "../revisions/index.js";
import type { Implementation } from "../types/base.js";
import type { ClientCapabilities, InitializeResult } from "../types/lifecycle.js";
import { acceptServerVersion } from "./negotiate.js";

/** How long the whole `initialize` exchange may take by default. */
export const DEFAULT_HANDSHAKE_TIMEOUT = 30_000;

export interface ClientHandshakeOptions {
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  /** The version to ask for; default the newest mcpkit speaks. */
  protocolVersion?: string;
  /** Versions the client accepts in the answer; default every legacy version. */
  supportedVersions?: readonly string[];
  timeout?: number;
}

/**
 * The client's half of the handshake: `initialize`, check the answer, `notifications/initialized`.
 * Rejects with a clear error on timeout, on an unspeakable version, or on a malformed answer.
 */
export async function clientHandshake(
  peer: Peer,
  options: ClientHandshakeOptions,
): Promise<InitializeResult> {
  const requested = options.protocolVersion ?? LATEST_LEGACY_VERSION;
  const timeout = options.timeout ?? DEFAULT_HANDSHAKE_TIMEOUT;
  let result: InitializeResult;
  try {
    result = await peer.request<InitializeResult>(
      "initialize",
      { protocolVersion: requested, capabilities: options.capabilities, clientInfo: options.clientInfo },
      { timeout },
    );
  } catch (error) {
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      throw new McpError(
        ErrorCode.RequestTimeout,
        `The server did not answer initialize within ${timeout} ms`,
      );
    }
    throw error;
  }
  if (typeof result !== "object" || result === null || typeof result.serverInfo !== "object") {
    throw new McpError(ErrorCode.InvalidRequest, "The server's initialize result has no serverInfo");
  }
  result.protocolVersion = acceptServerVersion(
    result.protocolVersion,
    requested,
    options.supportedVersions ?? LEGACY_VERSIONS,
  );
  result.capabilities ??= {};
  peer.notify("notifications/initialized");
  return result;
}
