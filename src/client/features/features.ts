import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { Peer } from "../../protocol/engine/peer.js";
import {
  applyDefaults,
  contentProblems,
  type ElicitationSchema,
} from "../../protocol/features/elicitation.js";
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Root,
} from "../../protocol/types/client-features.js";
import type { ClientCapabilities } from "../../protocol/types/lifecycle.js";
import type { FeatureAnswerer, ServerRequestGate } from "../channels/channel.js";
import { TaskReceiver } from "../tasks/task-receiver.js";

/** What a handler of a server request gets besides the params. */
export interface ServerRequestContext {
  /** Aborted when the server cancels its request or the connection closes. */
  signal: AbortSignal;
}

/** Answers `sampling/createMessage`: run the LLM (after the user agreed) and return its message. */
export type SamplingHandler = (
  params: CreateMessageRequestParams,
  ctx: ServerRequestContext,
) => CreateMessageResult | Promise<CreateMessageResult>;

/** Answers `elicitation/create`: ask the user, return accept (with content), decline or cancel. */
export type ElicitationHandler = (
  params: ElicitRequestParams,
  ctx: ServerRequestContext,
) => ElicitResult | Promise<ElicitResult>;

/**
 * Answers `roots/list` itself, for a client whose roots are not its own (a proxy asks its own
 * client); `client.setRoots()` does not apply to it.
 */
export type RootsHandler = (ctx: ServerRequestContext) => Root[] | Promise<Root[]>;

/** The client features a client offers; each declares its capability. */
export interface ClientFeatures {
  /** Answers sampling requests; `tools: true` also accepts tools in sampling (2025-11-25). */
  sampling?: SamplingHandler | { handler: SamplingHandler; tools?: boolean; context?: boolean };
  /** Answers elicitation requests; `url: true` also accepts URL mode (2025-11-25). */
  elicitation?: ElicitationHandler | { handler: ElicitationHandler; form?: boolean; url?: boolean };
  /** The roots the server may work in; change them later with `client.setRoots()`. Or a handler. */
  roots?: Root[] | RootsHandler;
}

const handlerOf = <H>(feature: H | { handler: H }): H =>
  typeof feature === "function" ? feature : (feature as { handler: H }).handler;

/** The capabilities the registered features declare, merged over those given explicitly. */
export function featureCapabilities(
  features: ClientFeatures,
  given: ClientCapabilities = {},
): ClientCapabilities {
  const capabilities: ClientCapabilities = { ...given };
  const { sampling, elicitation, roots } = features;
  if (sampling) {
    const extra: { tools?: boolean; context?: boolean } = typeof sampling === "function" ? {} : sampling;
    capabilities.sampling = {
      ...(extra.tools ? { tools: {} } : {}),
      ...(extra.context ? { context: {} } : {}),
      ...given.sampling,
    };
  }
  if (elicitation) {
    const modes: { form?: boolean; url?: boolean } = typeof elicitation === "function" ? {} : elicitation;
    capabilities.elicitation = {
      ...(modes.form !== false ? { form: {} } : {}),
      ...(modes.url ? { url: {} } : {}),
      ...given.elicitation,
    };
  }
  if (roots) capabilities.roots = { listChanged: true, ...given.roots };
  return capabilities;
}

/** The answers a client can give, from its registered features; `roots` reads the current roots. */
export function featureAnswerer(features: ClientFeatures, roots: () => Root[]): FeatureAnswerer {
  return async (method, params, signal) => {
    if (method === "sampling/createMessage" && features.sampling) {
      return handlerOf(features.sampling)(params as unknown as CreateMessageRequestParams, { signal });
    }
    if (method === "elicitation/create" && features.elicitation) {
      const elicit = params as unknown as ElicitRequestParams;
      const result = await handlerOf(features.elicitation)(elicit, { signal });
      return elicit.mode === "url"
        ? result
        : checkedFormResult(elicit.requestedSchema as unknown as ElicitationSchema, result);
    }
    if (method === "roots/list" && typeof features.roots === "function") {
      return { roots: await features.roots({ signal }) };
    }
    if (method === "roots/list" && features.roots) return { roots: roots() };
    throw new McpError(
      ErrorCode.MethodNotFound,
      `This client does not answer ${method}: no handler was given at connect`,
    );
  };
}

/**
 * Installs the handlers for the server's requests on a client's engine, answering while `gate` is
 * open; with `tasks`, a request the server sends as a task runs as one.
 */
export function installFeatures(
  peer: Peer,
  features: ClientFeatures,
  answer: FeatureAnswerer,
  gate: ServerRequestGate,
  tasks?: TaskReceiver,
): void {
  const methods: [string, unknown][] = [
    ["sampling/createMessage", features.sampling],
    ["elicitation/create", features.elicitation],
    ["roots/list", features.roots],
  ];
  for (const [method, feature] of methods) {
    if (!feature) continue;
    peer.setRequestHandler(method, (params, request) => {
      // The same answer as for a method the client has no handler for.
      if (!gate.open) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
      if (tasks && TaskReceiver.asked(method, params)) return tasks.create(method, params);
      return answer(method, params, request.signal);
    });
  }
}

/** SEP-1034: defaults fill what the user left out; the content must then fit the schema. */
function checkedFormResult(schema: ElicitationSchema, result: ElicitResult): ElicitResult {
  if (result.action !== "accept") return result;
  const content = applyDefaults(schema, result.content) as ElicitResult["content"];
  const problems = contentProblems(schema, content);
  if (problems.length > 0) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `The elicitation answer does not fit the schema: ${problems.join("; ")}`,
    );
  }
  return { ...result, content };
}
