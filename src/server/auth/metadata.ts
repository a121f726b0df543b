import type { HttpExchange, MountedRoutes } from "../../transports/http/shared/exchange.js";
import { WELL_KNOWN } from "./urls.js";

/** What the resource's metadata document says (RFC 9728 §2). */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
  bearer_methods_supported: string[];
  dpop_signing_alg_values_supported?: string[];
  dpop_bound_access_tokens_required?: boolean;
  [field: string]: unknown;
}

/**
 * Serves the metadata document at the well-known URL RFC 9728 derives from the resource (the
 * path inserted) and at the root one clients try next. It is public: any origin may read it.
 */
export class MetadataRoutes implements MountedRoutes {
  constructor(
    private readonly resourcePath: () => string,
    private readonly document: () => ProtectedResourceMetadata,
  ) {}

  /** Whether a path is one the document is served at. */
  serves(pathname: string): boolean {
    return pathname === WELL_KNOWN || pathname === `${WELL_KNOWN}${this.resourcePath()}`;
  }

  route(exchange: HttpExchange, pathname: string): Promise<void> | undefined {
    if (!this.serves(pathname)) return undefined;
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "GET, OPTIONS",
      "access-control-allow-headers": "mcp-protocol-version",
    };
    if (exchange.method === "OPTIONS") exchange.respond(204, cors);
    else if (exchange.method !== "GET" && exchange.method !== "HEAD")
      exchange.respond(
        405,
        { ...cors, allow: "GET, OPTIONS", "content-type": "text/plain" },
        "Method Not Allowed",
      );
    else
      exchange.respond(
        200,
        { ...cors, "content-type": "application/json", "cache-control": "max-age=300" },
        JSON.stringify(this.document()),
      );
    return Promise.resolve();
  }

  async close(): Promise<void> {}
}
