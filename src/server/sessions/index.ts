export type { ClientSend, ClientTaskRequest } from "./client-task.js";
export { RequestContext, type RunningTask } from "./context.js";
export type { InputMethod } from "./input-round.js";
export { LOGGING_LEVELS } from "./logging.js";
export type { ReplyChannel, ReplyTarget } from "./reply-channel.js";
export type { ServerSession, SessionHost } from "./session.js";
export type { TaskStatusSink } from "./subscriptions.js";
