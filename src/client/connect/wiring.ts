import { Peer } from "../../protocol/engine/peer.js";
import type { ClientHandshakeOptions } from "../../protocol/eras/handshake.js";
import { TASKS_EXTENSION } from "../../protocol/features/tasks.js";
import type { Transport } from "../../protocol/transport.js";
import type { ProgressNotificationParams } from "../../protocol/types/base.js";
import type { Root } from "../../protocol/types/client-features.js";
import type { ClientCapabilities } from "../../protocol/types/lifecycle.js";
import type { JsonSchema } from "../../protocol/types/tools.js";
import { Emitter } from "../../util/emitter.js";
import type { FeatureAnswerer, ServerRequestGate } from "../channels/channel.js";
import { type ClientEvents, NOTIFICATION_EVENTS } from "../features/events.js";
import { extensionCapabilities, installExtensions } from "../features/extension.js";
import { featureAnswerer, featureCapabilities, installFeatures } from "../features/features.js";
import { ResultCache } from "../requests/cache.js";
import { TaskReceiver } from "../tasks/task-receiver.js";
import type { ClientOptions } from "./options.js";

/** What a client is made of, gathered while connecting. */
export interface ClientParts {
  peer: Peer;
  transport: Transport;
  events: Emitter<ClientEvents>;
  rootsState: { roots: Root[] };
  handshake: ClientHandshakeOptions;
  answer: FeatureAnswerer;
  /** Opened when a handshake session starts: only then does the client answer server requests. */
  serverRequests: ServerRequestGate;
  toolSchemas: Map<string, JsonSchema>;
  /** Tools the server lists as read-only or idempotent: a call lost with its stream may be sent again. */
  safeToRepeat: Set<string>;
  cache: ResultCache;
}

/**
 * The client speaks the tasks extension (SEP-2663): a tool call the server answers with a task is
 * polled to its end, so the client declares it unless told otherwise.
 */
function withTasks(
  capabilities: ClientCapabilities,
  declare: boolean,
  clientTasks: ClientCapabilities["tasks"],
): ClientCapabilities {
  const result = clientTasks && !capabilities.tasks ? { ...capabilities, tasks: clientTasks } : capabilities;
  if (!declare || result.extensions?.[TASKS_EXTENSION] !== undefined) return result;
  return { ...result, extensions: { ...result.extensions, [TASKS_EXTENSION]: {} } };
}

/**
 * The `tasks` capability of client-side tasks (2025-11-25), when `clientTasks` is on: for the
 * sampling and elicitation the client answers.
 */
function clientTaskCapability(options: ClientOptions): ClientCapabilities["tasks"] | undefined {
  if (!options.clientTasks) return undefined;
  const methods: string[] = [];
  if (options.sampling) methods.push("sampling/createMessage");
  if (options.elicitation) methods.push("elicitation/create");
  return TaskReceiver.capability(methods);
}

/**
 * Everything a client needs before it talks to the server: the engine, with listeners installed
 * before the first message so nothing the server sends early is lost, and the features that
 * answer the server's requests.
 */
export function wireClient(transport: Transport, options: ClientOptions, version: string): ClientParts {
  const peer = new Peer(transport, { requestTimeout: options.requestTimeout, trace: options.trace });
  const events = new Emitter<ClientEvents>();
  const cache = new ResultCache();
  for (const [method, event] of Object.entries(NOTIFICATION_EVENTS)) {
    peer.setNotificationHandler(method, (params) => {
      cache.invalidate(event, params);
      events.emit(event, params as never);
    });
  }
  peer.onprogress = (params) => events.emit("progress", params as unknown as ProgressNotificationParams);
  peer.onClose((error) => events.emit("close", error));
  peer.onerror = (error) => events.emit("protocolError", error);
  const rootsState = { roots: Array.isArray(options.roots) ? options.roots : [] };
  const answer = featureAnswerer(options, () => rootsState.roots);
  const serverRequests: ServerRequestGate = { open: false };
  const taskCapability = clientTaskCapability(options);
  let receiver: TaskReceiver | undefined;
  if (taskCapability) {
    const given = options.clientTasks;
    receiver = new TaskReceiver(peer, answer, typeof given === "object" ? given : {});
    receiver.install(serverRequests);
  }
  installFeatures(peer, options, answer, serverRequests, receiver);
  const extensions = options.extensions ?? [];
  installExtensions(peer, extensions, serverRequests);
  const handshake: ClientHandshakeOptions = {
    clientInfo: options.clientInfo ?? { name: "mcpkit", version },
    capabilities: extensionCapabilities(
      extensions,
      withTasks(featureCapabilities(options, options.capabilities), options.tasks !== false, taskCapability),
    ),
    protocolVersion: options.protocolVersion,
    timeout: options.handshakeTimeout,
  };
  return {
    peer,
    transport,
    events,
    rootsState,
    handshake,
    answer,
    serverRequests,
    toolSchemas: new Map(),
    safeToRepeat: new Set(),
    cache,
  };
}
