/**
 * What both roles know of the tasks extension (SEP-2663): its id and the states a task goes
 * through. The server side lives in `extensions/tasks`, the client side in `client/`.
 */

/** The extension's id (SEP-2663). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** Where a task is: `working` and `input_required` go on; `completed`, `failed` and `cancelled` are terminal. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";
