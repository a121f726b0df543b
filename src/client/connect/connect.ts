import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { clientHandshake, DEFAULT_HANDSHAKE_TIMEOUT } from "../../protocol/eras/handshake.js";
import {
  MODERN_VERSIONS,
  type Revision,
  revisionOf,
  SUPPORTED_VERSIONS,
} from "../../protocol/revisions/index.js";
import type { Transport } from "../../protocol/transport.js";
import { StdioClientTransport } from "../../transports/stdio/client.js";
import { VERSION as version } from "../../version.js";
import { isOAuthError } from "../auth/errors.js";
import type { Channel } from "../channels/channel.js";
import { LegacyChannel } from "../channels/legacy.js";
import { ModernChannel } from "../channels/modern.js";
import { discover, mirroredParams } from "../channels/stateless.js";
import { httpTransports, oauthSession, shouldFallBack } from "./connect-http.js";
import type { ClientOptions } from "./options.js";
import { type ClientParts, wireClient } from "./wiring.js";

/**
 * The most the stateless probe waits, by default, before taking a silent server for one of the
 * handshake era; never more than half the handshake budget.
 */
const PROBE_TIMEOUT = 5000;

/** A client's parts and the channel it speaks on, once connected. */
export interface Connected {
  parts: ClientParts;
  channel: Channel;
}

/**
 * Spawns or reaches the server and finds the era it speaks: a stdio server (`command`), an HTTP
 * one (`url`: Streamable HTTP, falling back to legacy SSE on a 4xx), or a given `transport`.
 * Rejects, and leaves nothing running, if it fails.
 */
export async function connect(options: ClientOptions): Promise<Connected> {
  const pinned = options.protocolVersion;
  if (pinned !== undefined && revisionOf(pinned) === undefined) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown protocol version ${JSON.stringify(pinned)} (mcpkit speaks ${SUPPORTED_VERSIONS.join(", ")})`,
    );
  }
  if (!("url" in options)) {
    return connectWith(
      "transport" in options ? options.transport : new StdioClientTransport(options),
      options,
    );
  }
  const session = await oauthSession(options);
  const attempts = await httpTransports(options, session);
  const reach = async () => {
    for (let i = 0; ; i++) {
      try {
        return await connectWith(await attempts[i]!(), options);
      } catch (error) {
        if (i === attempts.length - 1 || !shouldFallBack(error)) throw error;
      }
    }
  };
  if (!session) return reach();
  const before = session.authorizations;
  try {
    return await reach();
  } catch (error) {
    // Signing in took time the probe and the handshake do not give: with the tokens now held,
    // connecting again is quick.
    if (isOAuthError(error)) throw error;
    await session.settled();
    if (session.authorizations === before) throw error;
    return reach();
  }
}

/**
 * Probes for a stateless server where the transport and the options allow, else the handshake.
 * The probe and the handshake share one budget, `handshakeTimeout`. A revision pinned with
 * `protocolVersion` is never replaced by another era's.
 */
async function connectWith(transport: Transport, options: ClientOptions): Promise<Connected> {
  const parts = wireClient(transport, options, version);
  const { peer } = parts;
  const budget = new Budget(options.handshakeTimeout ?? DEFAULT_HANDSHAKE_TIMEOUT);
  try {
    await peer.start();
    const wanted = options.protocolVersion === undefined ? undefined : revisionOf(options.protocolVersion);
    const carriesModern = transport.eras === undefined || transport.eras.includes("modern");
    if (carriesModern && (wanted === undefined || MODERN_VERSIONS.includes(wanted.version))) {
      // Pinned to a stateless revision, the probe may take the whole budget: there is no fallback.
      const share = wanted
        ? budget.total
        : (options.probeTimeout ?? Math.min(PROBE_TIMEOUT, budget.total / 2));
      const found = await probe(parts, wanted?.version, Math.min(share, budget.total));
      if (typeof found === "object") return found;
      if (found === "silent") budget.probed = budget.elapsed();
      if (wanted) throw pinnedUnanswered(wanted, budget);
    }
    return await handshakeOrLateProbe(parts, budget);
  } catch (error) {
    await transport.close().catch(() => {});
    throw error;
  }
}

/** `server/discover`: a stateless channel, `"silent"`, or `undefined` for a server of the handshake era. */
async function probe(
  parts: ClientParts,
  preferred: string | undefined,
  timeout: number,
): Promise<Connected | "silent" | undefined> {
  const { peer, transport, handshake, toolSchemas } = parts;
  const identity = { clientCapabilities: handshake.capabilities, clientInfo: handshake.clientInfo };
  const found = await discover(peer, transport, identity, preferred, timeout, (message) =>
    mirroredParams(message, toolSchemas),
  );
  if (found === undefined || found === "silent") return found;
  const modern = { ...identity, protocolVersion: found.protocolVersion };
  return {
    parts,
    channel: new ModernChannel(peer, transport, modern, parts.answer, found, parts.safeToRepeat),
  };
}

/**
 * The handshake in what is left of the budget. A server that refuses `initialize` with -32022
 * naming a stateless revision, or answers it with one, had answered the probe too, late (it
 * started slowly): it is probed again on that revision.
 */
async function handshakeOrLateProbe(parts: ClientParts, budget: Budget): Promise<Connected> {
  const { peer, transport, handshake } = parts;
  try {
    // A session may ask the client for roots, sampling and elicitation once it has begun.
    parts.serverRequests.open = true;
    const init = await clientHandshake(peer, { ...handshake, timeout: budget.left() });
    peer.batches = revisionOf(init.protocolVersion)?.batches === true;
    return { parts, channel: new LegacyChannel(peer, transport, handshake, init) };
  } catch (error) {
    parts.serverRequests.open = false;
    if (!(error instanceof McpError)) throw error;
    if (error.code === ErrorCode.RequestTimeout) throw handshakeTimedOut(budget);
    const late = lateModernVersion(error);
    if (late === undefined) throw error;
    const found = await probe(parts, late, budget.left());
    if (typeof found === "object") return found;
    throw error;
  }
}

/** The stateless revision a failed `initialize` shows the server to speak, if it shows one. */
function lateModernVersion(error: McpError): string | undefined {
  const data = error.data as { supported?: unknown; answered?: unknown } | undefined;
  if (error.code === ErrorCode.UnsupportedProtocolVersion && Array.isArray(data?.supported)) {
    const supported = data.supported;
    return MODERN_VERSIONS.find((v) => supported.includes(v));
  }
  // The client's own refusal of the version an initialize result named.
  if (error.code === ErrorCode.InvalidRequest && typeof data?.answered === "string") {
    return MODERN_VERSIONS.find((v) => v === data.answered);
  }
  return undefined;
}

/** The time a connection may take, shared by the probe and the handshake. */
class Budget {
  private readonly started = Date.now();
  /** How long the probe waited in vain, if it did. */
  probed: number | undefined;

  constructor(readonly total: number) {}

  elapsed(): number {
    return Date.now() - this.started;
  }

  left(): number {
    return Math.max(1, this.total - this.elapsed());
  }
}

function handshakeTimedOut(budget: Budget): McpError {
  const waited = budget.probed;
  const message =
    waited === undefined
      ? `The server did not answer initialize within ${budget.total} ms`
      : `The server answered neither server/discover nor initialize within ${budget.total} ms ` +
        `(${waited} ms waiting for server/discover, then ${budget.elapsed() - waited} ms for initialize)`;
  return new McpError(ErrorCode.RequestTimeout, message, { elapsed: budget.elapsed() });
}

function pinnedUnanswered(wanted: Revision, budget: Budget): McpError {
  const elapsed = budget.elapsed();
  const silent = budget.probed !== undefined;
  const why = silent
    ? `did not answer server/discover within ${budget.total} ms`
    : `does not speak it (it refused server/discover after ${elapsed} ms)`;
  return new McpError(
    silent ? ErrorCode.RequestTimeout : ErrorCode.UnsupportedProtocolVersion,
    `The client is pinned to protocol ${wanted.version}, and the server ${why}`,
    { elapsed },
  );
}
