export * from "../util/emitter.js";
export * from "../util/uri-template.js";
export type { Continuation } from "./engine/outgoing.js";
export {
  DEFAULT_REQUEST_TIMEOUT,
  IncomingRequest,
  type MessageTrace,
  type NotificationHandler,
  Peer,
  type PeerOptions,
  type RequestHandler,
} from "./engine/peer.js";
export * from "./eras/handshake.js";
export * from "./eras/negotiate.js";
export * from "./eras/request-meta.js";
export * from "./extensions.js";
export { joinText } from "./features/content.js";
export * from "./features/elicitation.js";
export * from "./revisions/index.js";
export * from "./schema/index.js";
export type {
  CheckedMessage,
  ParamHeaderMirror,
  SharedSessionState,
  Transport,
  TransportHandlers,
  TransportNetwork,
} from "./transport.js";
export type * from "./types/index.js";
