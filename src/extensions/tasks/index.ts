export type { AskOptions } from "../../server/sessions/context.js";
export type { InputRequiredResult, InputRound } from "../../server/sessions/input-round.js";
export type { TaskContext, TaskLink } from "./context.js";
export { type TasksOptions, tasks } from "./extension.js";
export { MemoryTaskStore, type MemoryTaskStoreOptions } from "./memory-store.js";
export type { TaskPage, TaskStore } from "./store.js";
export {
  isTerminal,
  RELATED_TASK,
  TASKS_EXTENSION,
  type TaskError,
  type TaskInputRequest,
  type TaskRecord,
  type TaskStatus,
  type TaskUpdate,
} from "./types.js";
