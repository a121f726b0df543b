import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { JSONRPCMessage } from "../../jsonrpc/messages.js";
import { extend } from "../../util/extend.js";
import { MODERN_VERSIONS, REVISIONS, revisionOf } from "../revisions/index.js";
import type { ProtocolEra } from "./era.js";
import { isModernRequest, readRequestMeta, unsupportedVersion } from "./request-meta.js";

const modernRevisions = REVISIONS.filter((r) => r.era === "modern");

/** Requests a client may send in no revision of the handshake era: they always speak this one. */
const MODERN_ONLY_METHODS: ReadonlySet<string> = (() => {
  const legacyRequests = new Set(
    REVISIONS.filter((r) => r.era === "legacy").flatMap((r) => [...r.clientRequests]),
  );
  const modernRequests = modernRevisions.flatMap((r) => [...r.clientRequests]);
  return new Set(modernRequests.filter((method) => !legacyRequests.has(method)));
})();

/** Whether a request speaks the stateless era: by its `_meta`, or by a method only that era has. */
export function speaksModern(method: string, params: Record<string, unknown> | undefined): boolean {
  return isModernRequest(params) || MODERN_ONLY_METHODS.has(method);
}

/**
 * Why a message cannot be part of a JSON-RPC batch, or `undefined`: batches are 2025-03-26's
 * alone, so a request in the stateless era's form, which a session would otherwise serve as such,
 * is refused there.
 */
export function batchedModernProblem(message: JSONRPCMessage): string | undefined {
  if (!("method" in message) || !("id" in message) || !speaksModern(message.method, message.params)) {
    return undefined;
  }
  return (
    `${message.method} (id ${JSON.stringify(message.id)}) is a request of the stateless era (it names ` +
    "its protocol version in _meta, or has a method only that era has), which has no batches"
  );
}

/** Results that carry caching hints, in some revision of the era. */
const CACHEABLE = new Set(modernRevisions.flatMap((r) => [...r.cacheable]));

/** Requests whose handlers may ask the client for input (multi round-trip), and their subject. */
const ASKING = new Map(
  modernRevisions.flatMap((r) =>
    Object.entries(r.asking).map(
      ([method, param]) => [method, (params: Record<string, unknown>) => params[param]] as const,
    ),
  ),
);

/**
 * The stateless era (2026-07-28): every request names its version and its sender in `_meta`;
 * results carry `resultType`, the server's identity and, where cacheable, caching hints; a
 * missing resource is invalid params.
 */
export const modern: ProtocolEra = {
  name: "modern",
  versions: MODERN_VERSIONS,
  admit(method, version, supported, extended) {
    const revision = version === undefined ? undefined : revisionOf(version);
    if (revision?.era !== "modern" || !supported.includes(revision.version)) {
      return unsupportedVersion(version ?? "", supported);
    }
    // Asked before any error is made: an error captures a stack, and every tasks/get would pay it.
    if (revision.clientRequests.has(method) || extended?.(method)) return undefined;
    return new McpError(ErrorCode.MethodNotFound, `Method not found: ${method} (not in protocol ${version})`);
  },
  readMeta: readRequestMeta,
  decorate(_method, result, { serverMeta, cache }) {
    const given = result as Record<string, unknown>;
    // A copy written out (see `extend`), with no object for the fields it adds.
    const decorated: Record<string, unknown> = {};
    for (const key in given) decorated[key] = given[key];
    const resultType = given.resultType ?? "complete";
    decorated.resultType = resultType;
    const own = given._meta as object | undefined;
    // Most results carry no _meta of their own: they share the server's.
    decorated._meta = own === undefined ? serverMeta : extend(own, serverMeta);
    if (cache !== undefined && resultType === "complete") {
      decorated.ttlMs ??= cache.ttlMs;
      decorated.cacheScope ??= cache.cacheScope;
    }
    return decorated;
  },
  mapError(error) {
    if (error instanceof McpError && error.code === ErrorCode.ResourceNotFound) {
      return new McpError(ErrorCode.InvalidParams, error.message, error.data);
    }
    return error;
  },
  askSubject: (method) => ASKING.get(method),
  cacheable: (method) => CACHEABLE.has(method),
};
