export { ErrorCode, McpError } from "../jsonrpc/errors.js";
export type { CacheHint } from "../protocol/eras/index.js";
export { audio, embeddedResource, image, resourceLink, text } from "../protocol/features/content.js";
export type { EventStore } from "../transports/http/server/event-store.js";
export { MemoryEventStore } from "../transports/http/server/event-store.js";
export type { StreamableHttpOptions } from "../transports/http/server/handler.js";
export type { HttpServerHandle } from "../transports/http/server/listen.js";
export type { MethodSelector } from "../util/middleware.js";
export type {
  AuthInfo,
  DpopOptions,
  IntrospectionOptions,
  JwtOptions,
  ProtectedResourceOptions,
} from "./auth/index.js";
export {
  type AroundHandler,
  type DispatchHandler,
  type ExtensionHost,
  type ExtensionMethod,
  type Paged,
  type RateLimitOptions,
  type RateLimitRule,
  type ServerExtension,
  type ServerMiddleware,
  ServerMiddlewareContext,
  type ServerParamsOf,
  type ServerRequestTypes,
  type ServerResultOf,
} from "./dispatch/index.js";
export {
  type Completer,
  type CompletionReturn,
  type PromptArgs,
  type PromptArgumentSpec,
  type PromptArguments,
  type PromptConfig,
  type PromptHandler,
  type PromptReturn,
  type ReadResource,
  type ReadTemplateResource,
  type ResourceMeta,
  type ResourceOptions,
  type ResourceReturn,
  type ResourceTemplateMeta,
  type ResourceTemplateOptions,
  type TaskSupport,
  type ToolArgs,
  type ToolConfig,
  type ToolHandler,
  type ToolResultOf,
  type ToolReturn,
  type ToolTaskOptions,
  toolError,
} from "./registries/index.js";
export { McpServer, type ServerInfo, type ServerOptions } from "./server.js";
export type { AuthOption, ServeHttpOptions, WebHandlerOptions } from "./serving/index.js";
export {
  type ClientSend,
  type ClientTaskRequest,
  type InputMethod,
  LOGGING_LEVELS,
  type ReplyChannel,
  type ReplyTarget,
  RequestContext,
  type RunningTask,
  type ServerSession,
  type SessionHost,
  type TaskStatusSink,
} from "./sessions/index.js";
