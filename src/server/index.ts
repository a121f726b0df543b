export type { CacheHint } from "../protocol/eras/index.js";
export { audio, embeddedResource, image, resourceLink, text } from "../protocol/features/content.js";
export {
  type MessageBus,
  type Replication,
  ReplicationUnavailableError,
  type SessionRecord,
  type SessionStore,
} from "./sessions/stores.js";
export {
  type AroundHandler,
  type DispatchHandler,
  type ExtensionHost,
  type ExtensionMethod,
  type RateLimitOptions,
  type RateLimitRule,
  type ServerExtension,
  type ServerMiddleware,
  ServerMiddlewareContext,
  type ServerParamsOf,
  type ServerRequestTypes,
  type ServerResultOf,
} from "./dispatch/index.js";
export type {
  Completer,
  CompletionReturn,
  PromptArgs,
  PromptArgumentSpec,
  PromptArguments,
  PromptConfig,
  PromptHandler,
  PromptReturn,
  ReadResource,
  ReadTemplateResource,
  ResourceMeta,
  ResourceOptions,
  ResourceReturn,
  ResourceTemplateMeta,
  ResourceTemplateOptions,
  TaskSupport,
  ToolArgs,
  ToolConfig,
  ToolHandler,
  ToolResultOf,
  ToolReturn,
  ToolTaskOptions,
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
export {
  type EventStore,
  MemoryEventStore,
  type MessageBus,
  type Replication,
  ReplicationUnavailableError,
  type SessionRecord,
  type SessionStore,
  type StreamedRequest,
} from "./sessions/stores.js";
