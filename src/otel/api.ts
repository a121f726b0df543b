import { importPeer } from "../util/optional-peer.js";

/**
 * `@opentelemetry/api`, an optional peer, loaded once when `mcpkit/otel` is imported: without it the
 * import fails with a `MissingPeerError` naming the package to install.
 */
export const api = await importPeer("@opentelemetry/api", "mcpkit/otel", () => import("@opentelemetry/api"));
