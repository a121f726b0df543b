export { type TaskChannel, type TaskInfo, ToolTask } from "./task.js";
export type { ClientTaskOptions } from "./task-receiver.js";
export type { CallToolOptions } from "./tool-tasks.js";
