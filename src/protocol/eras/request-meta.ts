import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { Implementation } from "../types/base.js";
import type { LoggingLevel } from "../types/client-features.js";
import type { ClientCapabilities, RequestMeta } from "../types/lifecycle.js";

export type { RequestMeta } from "../types/lifecycle.js";

/** The `_meta` keys of the stateless revision (2026-07-28). */
export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/** Whether a request speaks the stateless era: it names its protocol version in `_meta`. */
export function isModernRequest(params: Record<string, unknown> | undefined): boolean {
  const meta = params?._meta as Record<string, unknown> | undefined;
  return meta !== undefined && typeof meta === "object" && META.protocolVersion in meta;
}

/** Reads a stateless request's `_meta`; a missing or malformed required key is -32602. */
export function readRequestMeta(params: Record<string, unknown> | undefined): RequestMeta {
  const meta = params?._meta as Record<string, unknown> | undefined;
  if (typeof meta !== "object" || meta === null) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid params: the request needs _meta with ${META.protocolVersion} and ${META.clientCapabilities}`,
    );
  }
  const protocolVersion = meta[META.protocolVersion];
  if (typeof protocolVersion !== "string") {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid params: _meta needs a string ${META.protocolVersion}`,
    );
  }
  const clientCapabilities = meta[META.clientCapabilities];
  if (
    typeof clientCapabilities !== "object" ||
    clientCapabilities === null ||
    Array.isArray(clientCapabilities)
  ) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid params: _meta needs an object ${META.clientCapabilities}`,
    );
  }
  const result: RequestMeta = {
    protocolVersion,
    clientCapabilities: clientCapabilities as ClientCapabilities,
  };
  const clientInfo = meta[META.clientInfo];
  if (typeof clientInfo === "object" && clientInfo !== null) result.clientInfo = clientInfo as Implementation;
  const logLevel = meta[META.logLevel];
  if (typeof logLevel === "string") result.logLevel = logLevel as LoggingLevel;
  return result;
}

/** -32022: the request's version is not one the server speaks. */
export function unsupportedVersion(requested: string, supported: readonly string[]): McpError {
  return new McpError(ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${requested}`, {
    supported: [...supported],
    requested,
  });
}

/** -32021: the request needs client capabilities it did not declare. */
export function missingCapability(required: Record<string, object>, what: string): McpError {
  return new McpError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${what} needs ${Object.keys(required).join(", ")}`,
    { requiredCapabilities: required },
  );
}
