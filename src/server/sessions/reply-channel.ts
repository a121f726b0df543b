import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { IncomingRequest } from "../../protocol/engine/incoming.js";
import type { RequestOptions } from "../../protocol/engine/outgoing.js";
import { missingCapability } from "../../protocol/eras/request-meta.js";
import { type Revision, revisionOf } from "../../protocol/revisions/index.js";
import type { LoggingLevel } from "../../protocol/types/client-features.js";
import type { RequestMeta } from "../../protocol/types/lifecycle.js";
import type { InputMethod, InputRound } from "./input-round.js";
import { passes } from "./logging.js";
import type { ServerSession } from "./session.js";

/** What a reply channel needs of the request it serves. */
export interface ReplyTarget {
  readonly request: IncomingRequest;
  readonly session: ServerSession;
  /** Opens this request's multi round-trip round, where the request may ask for input. */
  readonly round: (() => InputRound) | undefined;
}

/**
 * How a handler talks back to the client, per era: through the session (handshake era: requests
 * and notifications to the client) or within the stateless request (2026-07-28: the `_meta`'s
 * log level, input requests of a multi round-trip). A context picks its channel once.
 */
export interface ReplyChannel {
  revision(target: ReplyTarget): Revision | undefined;
  log(target: ReplyTarget, level: LoggingLevel, data: unknown, logger: string | undefined): void;
  ask<T>(
    target: ReplyTarget,
    method: InputMethod,
    params: Record<string, unknown> | undefined,
    options: (RequestOptions & { key?: string }) | undefined,
  ): Promise<T>;
  /** The error of a feature the client did not declare. */
  missing(target: ReplyTarget, required: Record<string, object>, what: string): McpError;
}

/** The handshake era: the session's revision and log level; questions are requests to the client. */
export const sessionChannel: ReplyChannel = {
  revision: (target) => target.session.revision,
  log(target, level, data, logger) {
    target.session.log(level, data, logger, target.request.id);
  },
  ask<T>(
    target: ReplyTarget,
    method: InputMethod,
    params: Record<string, unknown> | undefined,
    options: (RequestOptions & { key?: string }) | undefined,
  ) {
    const { key: _key, ...requestOptions } = options ?? {};
    return target.request.request<T>(method, params, requestOptions);
  },
  missing(target, required, what) {
    const client = target.session.clientInfo?.name ?? "the client";
    return new McpError(
      ErrorCode.InvalidRequest,
      `Cannot use ${what}: ${client} did not declare the ${Object.keys(required)[0]} capability`,
    );
  },
};

/** The stateless era: the request's own revision and log level; questions are input requests. */
export const statelessChannel: ReplyChannel = {
  revision: (target) => revisionOf((target.request.requestMeta as RequestMeta).protocolVersion),
  log(target, level, data, logger) {
    // No level in the request's _meta, no messages.
    const minimum = target.request.requestMeta?.logLevel;
    if (minimum === undefined || !passes(level, minimum)) return;
    target.request.notify(
      "notifications/message",
      logger === undefined ? { level, data } : { level, logger, data },
    );
  },
  ask<T>(
    target: ReplyTarget,
    method: InputMethod,
    params: Record<string, unknown> | undefined,
    options: (RequestOptions & { key?: string }) | undefined,
  ) {
    if (!target.round) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `${target.request.method} cannot ask the client for input`,
      );
    }
    return target.round().ask(method, params, options?.key) as Promise<T>;
  },
  missing: (_target, required, what) => missingCapability(required, what),
};
