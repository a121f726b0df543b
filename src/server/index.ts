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
export type { ClientSend, ClientTaskRequest } from "./client-task.js";
export type { Completer, CompletionReturn } from "./completion.js";
export { RequestContext, type RunningTask } from "./context.js";
export type { DispatchHandler } from "./dispatch.js";
export type { AroundHandler, ExtensionHost, ExtensionMethod, ServerExtension } from "./extension.js";
export type { AuthOption, ServeHttpOptions, WebHandlerOptions } from "./http.js";
export type { InputMethod } from "./input-round.js";
export { LOGGING_LEVELS } from "./logging.js";
export type { Paged } from "./middleware.js";
export {
  type ServerMiddleware,
  ServerMiddlewareContext,
  type ServerParamsOf,
  type ServerRequestTypes,
  type ServerResultOf,
} from "./middleware.js";
export type {
  PromptArgs,
  PromptArgumentSpec,
  PromptArguments,
  PromptConfig,
  PromptHandler,
  PromptReturn,
} from "./prompts.js";
export type { RateLimitOptions, RateLimitRule } from "./rate-limit.js";
export type { ReplyChannel, ReplyTarget } from "./reply-channel.js";
export type {
  ReadResource,
  ReadTemplateResource,
  ResourceMeta,
  ResourceOptions,
  ResourceReturn,
  ResourceTemplateMeta,
  ResourceTemplateOptions,
} from "./resources.js";
export { McpServer, type ServerInfo, type ServerOptions } from "./server.js";
export type { ServerSession, SessionHost } from "./session.js";
export type { TaskStatusSink } from "./subscriptions.js";
export type { ToolReturn } from "./tool-result.js";
export { toolError } from "./tool-result.js";
export type {
  TaskSupport,
  ToolArgs,
  ToolConfig,
  ToolHandler,
  ToolResultOf,
  ToolTaskOptions,
} from "./tools.js";
