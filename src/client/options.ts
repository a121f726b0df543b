import type { MessageTrace } from "../protocol/peer.js";
import type { Implementation } from "../protocol/types/base.js";
import type { ClientCapabilities } from "../protocol/types/lifecycle.js";
import type { StdioServerParameters } from "../transports/stdio/client.js";
import type { Transport } from "../transports/transport.js";
import type { ClientFeatures } from "./features.js";

/** Options every connection takes, whatever the transport. */
export interface CommonClientOptions extends ClientFeatures {
  /** How the client names itself; default `mcpkit`. */
  clientInfo?: Implementation;
  /** Extra capabilities to declare. */
  capabilities?: ClientCapabilities;
  /** The protocol version to ask for; default the newest. */
  protocolVersion?: string;
  /** Milliseconds the handshake may take; default 30 s. */
  handshakeTimeout?: number;
  /** Default per-request timeout in ms; default 60 s. */
  requestTimeout?: number;
  /** Sees every message sent and received. */
  trace?: MessageTrace;
}

/** Connect over any transport you built. */
export interface TransportClientOptions extends CommonClientOptions {
  transport: Transport;
}

/** Spawn a server and talk to it over stdio. */
export interface StdioClientOptions extends CommonClientOptions, StdioServerParameters {}

export type ClientOptions = StdioClientOptions | TransportClientOptions;
