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
export type { DispatchHandler } from "./dispatch/dispatch.js";
export type { AroundHandler, ExtensionHost, ExtensionMethod, ServerExtension } from "./dispatch/extension.js";
export type { Paged } from "./dispatch/middleware.js";
export {
  type ServerMiddleware,
  ServerMiddlewareContext,
  type ServerParamsOf,
  type ServerRequestTypes,
  type ServerResultOf,
} from "./dispatch/middleware.js";
export type { RateLimitOptions, RateLimitRule } from "./dispatch/rate-limit.js";
export type { Completer, CompletionReturn } from "./registries/completion.js";
export type {
  PromptArgs,
  PromptArgumentSpec,
  PromptArguments,
  PromptConfig,
  PromptHandler,
  PromptReturn,
} from "./registries/prompts.js";
export type {
  ReadResource,
  ReadTemplateResource,
  ResourceMeta,
  ResourceOptions,
  ResourceReturn,
  ResourceTemplateMeta,
  ResourceTemplateOptions,
} from "./registries/resources.js";
export type { ToolReturn } from "./registries/tool-result.js";
export { toolError } from "./registries/tool-result.js";
export type {
  TaskSupport,
  ToolArgs,
  ToolConfig,
  ToolHandler,
  ToolResultOf,
  ToolTaskOptions,
} from "./registries/tools.js";
export { McpServer, type ServerInfo, type ServerOptions } from "./server.js";
export type { AuthOption, ServeHttpOptions, WebHandlerOptions } from "./serving/http.js";
export type { ClientSend, ClientTaskRequest } from "./sessions/client-task.js";
export { RequestContext, type RunningTask } from "./sessions/context.js";
export type { InputMethod } from "./sessions/input-round.js";
export { LOGGING_LEVELS } from "./sessions/logging.js";
export type { ReplyChannel, ReplyTarget } from "./sessions/reply-channel.js";
export type { ServerSession, SessionHost } from "./sessions/session.js";
export type { TaskStatusSink } from "./sessions/subscriptions.js";
