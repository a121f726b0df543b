import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { fixedJson } from "../../jsonrpc/fixed-json.js";
import type { JSONRPCMessage } from "../../jsonrpc/messages.js";
import type { Peer, RequestOptions } from "../../protocol/engine/peer.js";
import { META } from "../../protocol/eras/request-meta.js";
import { LATEST_MODERN_VERSION, LEGACY_VERSIONS, MODERN_VERSIONS } from "../../protocol/revisions/index.js";
import type { Transport } from "../../protocol/transport.js";
import type { Implementation } from "../../protocol/types/base.js";
import type {
  ClientCapabilities,
  InitializeResult,
  ServerCapabilities,
} from "../../protocol/types/lifecycle.js";
import type { JsonSchema } from "../../protocol/types/tools.js";
import {
  encodeHeaderValue,
  headerString,
  paramHeadersOf,
  valueAt,
} from "../../transports/http/shared/param-headers.js";
import { extend } from "../../util/extend.js";
import { isOAuthError } from "../auth/errors.js";
import type { FeatureAnswerer } from "./channel.js";

/** What a stateless (2026-07-28) client sends in every request's `_meta`. */
export interface ModernIdentity {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation;
  /** The least severe log level wanted; unset, the server sends no log messages. */
  logLevel?: string;
  /** @internal The `_meta` made of this identity, and the log level it was made with. */
  shared?: { logLevel: string | undefined; meta: Readonly<Record<string, unknown>> };
}

/** The most rounds of a multi round-trip request before the client gives up. */
const MAX_ROUNDS = 16;

/** Errors only a stateless server sends: seeing one means the server is modern. */
const MODERN_ERRORS = new Set<number>([
  ErrorCode.UnsupportedProtocolVersion,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.HeaderMismatch,
]);

/**
 * The params of a stateless request: the caller's, with the client's `_meta` added. Params that
 * already carry it (built by the client with `sharedMeta`) are sent as they are.
 */
export function withMeta(
  params: Record<string, unknown> | undefined,
  identity: ModernIdentity,
): Record<string, unknown> {
  const own = params?._meta as Record<string, unknown> | undefined;
  const identityMeta = sharedMeta(identity);
  if (own === identityMeta) return params!;
  // Most requests carry no _meta of their own: they share one object per identity and log level.
  const meta = own === undefined ? identityMeta : extend(own, identityMeta);
  return params === undefined ? { _meta: meta } : extend(params, { _meta: meta });
}

/** The `_meta` of an identity's requests that have none of their own: one frozen object. */
export function sharedMeta(identity: ModernIdentity): Readonly<Record<string, unknown>> {
  const known = identity.shared;
  if (known !== undefined && known.logLevel === identity.logLevel) return known.meta;
  const own: Record<string, unknown> = {
    [META.protocolVersion]: identity.protocolVersion,
    [META.clientCapabilities]: identity.clientCapabilities,
    [META.clientInfo]: identity.clientInfo,
  };
  if (identity.logLevel !== undefined) own[META.logLevel] = identity.logLevel;
  // Serialized once, not with every request.
  const meta = fixedJson(own);
  identity.shared = { logLevel: identity.logLevel, meta };
  return meta;
}

/**
 * Looks for a stateless server: `server/discover` with the newest version, then with the newest one
 * both sides speak if the server names others. Returns the server's description as an
 * `InitializeResult`; `"silent"` when nothing came before `timeout`; `undefined` when the server
 * is of the handshake era (any error that is not a modern one).
 */
export async function discover(
  peer: Peer,
  transport: Transport,
  identity: Omit<ModernIdentity, "protocolVersion">,
  preferred: string | undefined,
  timeout: number,
  paramHeaders: (message: JSONRPCMessage) => Record<string, string>,
): Promise<InitializeResult | "silent" | undefined> {
  let version = preferred ?? LATEST_MODERN_VERSION;
  for (let attempt = 0; attempt < 2; attempt++) {
    transport.useModern?.(version, paramHeaders);
    try {
      const result = await peer.request<Record<string, unknown>>(
        "server/discover",
        withMeta(undefined, { ...identity, protocolVersion: version }),
        // A second attempt follows an answer, not silence: it gets the whole timeout again.
        { timeout },
      );
      // Anything but a real DiscoverResult (a legacy server answering every method with {}) means
      // the handshake era.
      if (!Array.isArray(result.supportedVersions)) break;
      const meta = result._meta as Record<string, unknown> | undefined;
      const serverInfo = (meta?.[META.serverInfo] as Implementation | undefined) ?? {
        name: "unknown",
        version: "",
      };
      const init: InitializeResult = {
        protocolVersion: version,
        capabilities: (result.capabilities as ServerCapabilities | undefined) ?? {},
        serverInfo,
      };
      if (typeof result.instructions === "string") init.instructions = result.instructions;
      return init;
    } catch (error) {
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        transport.resetModern?.();
        return "silent";
      }
      // A refused authorization says nothing about the era, and would be refused again.
      if (isOAuthError(error)) throw error;
      if (!(error instanceof McpError) || !MODERN_ERRORS.has(error.code)) break;
      if (error.code !== ErrorCode.UnsupportedProtocolVersion) throw error;
      const supported = (error.data as { supported?: unknown } | undefined)?.supported;
      const shared = Array.isArray(supported)
        ? MODERN_VERSIONS.find((v) => supported.includes(v))
        : undefined;
      if (!shared) {
        // The server speaks only versions of the handshake era (or none of ours): try the handshake.
        if (Array.isArray(supported) && LEGACY_VERSIONS.some((v) => supported.includes(v))) break;
        throw error;
      }
      version = shared;
    }
  }
  transport.resetModern?.();
  return undefined;
}

/**
 * A stateless request with multi round-trip support: while the server answers `input_required`,
 * the client answers its `inputRequests` with its features and retries with `inputResponses` and
 * the server's `requestState`, each time as a new request.
 */
export function modernRequest<T, R = T>(
  peer: Peer,
  method: string,
  params: Record<string, unknown> | undefined,
  identity: ModernIdentity,
  answer: FeatureAnswerer,
  options: RequestOptions | undefined,
  map: (result: T) => R,
  recover?: (error: unknown) => R | Promise<R>,
): Promise<R> {
  const base = withMeta(params, identity);
  return peer.requestThen<Record<string, unknown>, R>(method, base, options, {
    // Results of older servers carry no resultType: they are complete.
    map: (result) =>
      result.resultType === "input_required"
        ? moreRounds<T>(peer, method, base, result, answer, options).then(map, recover)
        : map(result as T),
    recover,
  });
}

/** The rounds after the first, while the server asks for input. */
async function moreRounds<T>(
  peer: Peer,
  method: string,
  base: Record<string, unknown>,
  first: Record<string, unknown>,
  answer: FeatureAnswerer,
  options: RequestOptions | undefined,
): Promise<T> {
  let result = first;
  for (let round = 1; result.resultType === "input_required"; round++) {
    if (round > MAX_ROUNDS) {
      throw new McpError(
        ErrorCode.InternalError,
        `${method} still asked for input after ${MAX_ROUNDS} rounds`,
      );
    }
    const requests = (result.inputRequests ?? {}) as Record<
      string,
      { method: string; params?: Record<string, unknown> }
    >;
    const signal = options?.signal ?? new AbortController().signal;
    const inputResponses: Record<string, object> = {};
    await Promise.all(
      Object.entries(requests).map(async ([key, request]) => {
        inputResponses[key] = await answer(request.method, request.params ?? {}, signal);
      }),
    );
    const next = extend(base, { inputResponses } as Record<string, unknown>);
    if (typeof result.requestState === "string") next.requestState = result.requestState;
    result = await peer.request<Record<string, unknown>>(method, next, options);
  }
  return result as T;
}

/** The Mcp-Param-* headers of a tools/call, from the tool's schema as last listed. */
export function mirroredParams(
  message: JSONRPCMessage,
  schemas: Map<string, JsonSchema>,
): Record<string, string> {
  if (!("method" in message) || message.method !== "tools/call") return {};
  const schema = schemas.get(String(message.params?.name));
  const headers = schema ? paramHeadersOf(schema) : undefined;
  if (!headers || typeof headers === "string") return {};
  const out: Record<string, string> = {};
  for (const { header, path } of headers) {
    const value = headerString(valueAt(message.params?.arguments, path));
    if (value !== undefined) out[header] = encodeHeaderValue(value);
  }
  return out;
}
