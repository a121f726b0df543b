export { TASKS_EXTENSION, type TaskChannel, type TaskInfo, type TaskStatus, ToolTask } from "./task.js";
export type { ClientTaskOptions } from "./task-receiver.js";
export type { CallToolOptions } from "./tool-tasks.js";
