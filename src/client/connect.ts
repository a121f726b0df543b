import { clientHandshake, DEFAULT_HANDSHAKE_TIMEOUT } from "../protocol/eras/handshake.js";
import { revisionOf } from "../protocol/revisions/index.js";
import type { Transport } from "../protocol/transport.js";
import { StdioClientTransport } from "../transports/stdio/client.js";
import { VERSION as version } from "../version.js";
import type { Channel } from "./channels/channel.js";
import { LegacyChannel } from "./channels/legacy.js";
import { ModernChannel } from "./channels/modern.js";
import { discover, mirroredParams } from "./channels/stateless.js";
import { httpTransports, shouldFallBack } from "./connect-http.js";
import type { ClientOptions } from "./options.js";
import { type ClientParts, wireClient } from "./wiring.js";

/** How long the stateless probe waits before taking a silent server for one of the handshake era. */
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
  if (!("url" in options)) {
    return connectWith(
      "transport" in options ? options.transport : new StdioClientTransport(options),
      options,
    );
  }
  const attempts = await httpTransports(options);
  for (let i = 0; ; i++) {
    try {
      return await connectWith(await attempts[i]!(), options);
    } catch (error) {
      if (i === attempts.length - 1 || !shouldFallBack(error)) throw error;
    }
  }
}

/** Probes for a stateless server where the transport and the options allow, else the handshake. */
async function connectWith(transport: Transport, options: ClientOptions): Promise<Connected> {
  const parts = wireClient(transport, options, version);
  const { peer, handshake, toolSchemas } = parts;
  try {
    await peer.start();
    const wanted = options.protocolVersion === undefined ? undefined : revisionOf(options.protocolVersion);
    const carriesModern = transport.eras === undefined || transport.eras.includes("modern");
    if (carriesModern && wanted?.era !== "legacy") {
      const identity = { clientCapabilities: handshake.capabilities, clientInfo: handshake.clientInfo };
      const timeout = Math.min(options.handshakeTimeout ?? DEFAULT_HANDSHAKE_TIMEOUT, PROBE_TIMEOUT);
      const found = await discover(peer, transport, identity, wanted?.version, timeout, (message) =>
        mirroredParams(message, toolSchemas),
      );
      if (found) {
        const modern = { ...identity, protocolVersion: found.protocolVersion };
        return { parts, channel: new ModernChannel(peer, transport, modern, parts.answer, found) };
      }
    }
    const init = await clientHandshake(peer, handshake);
    return { parts, channel: new LegacyChannel(peer, transport, handshake, init) };
  } catch (error) {
    await transport.close().catch(() => {});
    throw error;
  }
}
