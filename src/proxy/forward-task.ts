/**
 * A tool call the proxy's client made as a task: the proxy runs it as a task of its own whose
 * handler makes the call upstream as a task and follows that task to its end. The upstream's
 * status message shows on the front task, the upstream's questions are asked of the front task's
 * caller (`input_required` on the front), its result or error ends the front task, and an upstream
 * task that was cancelled leaves the front task cancelled. Cancelling the front task (or its
 * expiry, or the proxy closing) cancels the upstream task; losing the upstream's connection fails
 * the front task.
 */
import type { McpClient } from "../client/client.js";
import type { ToolTask } from "../client/tasks/task.js";
import { RELATED_TASK, type TaskStore } from "../extensions/tasks/index.js";
import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { CallToolResult } from "../protocol/types/tools.js";
import type { RequestContext } from "../server/sessions/context.js";
import { asCaller } from "./caller.js";
import { resultOf } from "./forward.js";
import type { ForwardTarget } from "./forward-call.js";
import { askFront, ForwardedCall } from "./forwarded-call.js";
import { boundedError, checkResultSize, skippedResultError } from "./limits.js";
import type { ToolCallContext } from "./middleware.js";

/** What following one tool's tasks needs beyond forwarding its calls. */
interface TaskTarget extends ForwardTarget {
  /** The upstream's client now (it is replaced when the upstream reconnects). */
  client: () => McpClient;
  /** The proxy's own tasks. */
  store: TaskStore;
}

/** How long the proxy waits for the upstream to take a `tasks/cancel`, ms. */
const CANCEL_TIMEOUT = 10_000;

/** Runs the front task of `ctx` (its `request.task`): the upstream task, followed to its end. */
export async function forwardTask(target: TaskTarget, ctx: ToolCallContext): Promise<CallToolResult> {
  const front = ctx.request;
  const client = target.client();
  const lost = new AbortController();
  const offClose = client.on("close", () =>
    lost.abort(
      new McpError(ErrorCode.InternalError, `The connection to ${ctx.server} closed while its task ran`),
    ),
  );
  const call = new ForwardedCall(front, undefined, () => "", false);
  const signal = AbortSignal.any([call.signal, lost.signal]);
  const followed = target.calls.tasks.follow(target.tool.server, call, signal);
  const served = serveQuestions(front, call);
  try {
    return await asCaller(front, () => follow(target, ctx, client, signal, lost.signal, followed.named));
  } catch (error) {
    throw boundedError(error);
  } finally {
    offClose();
    followed.end();
    call.end();
    await served;
  }
}

async function follow(
  target: TaskTarget,
  ctx: ToolCallContext,
  client: McpClient,
  signal: AbortSignal,
  /** Aborted when the upstream's connection closed. */
  lost: AbortSignal,
  named: (taskId: string) => void,
): Promise<CallToolResult> {
  const { tool, gate, store, limits } = target;
  const frontTask = ctx.request.task!;
  const ttl = (await store.get(frontTask.id))?.ttl;
  // Only the creation counts against the upstream's concurrency: a task runs on for long.
  const task = await gate.run(() =>
    client.callTool(tool.definition.name, ctx.arguments, {
      task: typeof ttl === "number" ? { ttl } : true,
      signal,
    }),
  );
  if (task.id !== "") named(task.id);
  let message: string | undefined;
  try {
    for await (const info of task) {
      if (info.statusMessage !== undefined && info.statusMessage !== message) {
        message = info.statusMessage;
        await frontTask.statusMessage(message);
      }
      if (!(await store.get(frontTask.id))) {
        throw new McpError(ErrorCode.InternalError, `Task ${frontTask.id} expired`);
      }
    }
  } catch (error) {
    // Cancelled, expired or closing here: the upstream task is cancelled too; a lost connection cannot be.
    if (!lost.aborted) await cancelUpstream(client, task);
    throw error;
  }
  if (task.info.status === "cancelled") {
    await store.update(frontTask.id, {
      status: "cancelled",
      statusMessage: task.info.statusMessage ?? `The task on ${ctx.server} was cancelled`,
      inputRequests: undefined,
    });
    throw new McpError(ErrorCode.InternalError, `The task on ${ctx.server} was cancelled`);
  }
  let output: Awaited<ReturnType<ToolTask["result"]>>;
  try {
    output = await task.result();
  } catch (error) {
    throw skippedResultError(ctx.server, ctx.tool, error, limits);
  }
  const result = resultOf(output);
  ctx.resultSize = checkResultSize(ctx.server, ctx.tool, result, limits);
  return result;
}

/** Cancels the upstream task, once; an upstream that cannot take it is left as it is. */
async function cancelUpstream(client: McpClient, task: ToolTask): Promise<void> {
  if (task.id === "" || client.isClosed) return;
  await client
    .request("tasks/cancel", { taskId: task.id }, { timeout: CANCEL_TIMEOUT })
    .catch(() => undefined);
}

/** Asks the front task's caller each question the upstream asks, until the task ends. */
async function serveQuestions(front: RequestContext, call: ForwardedCall): Promise<void> {
  for (let n = 0; ; n++) {
    const question = await call.question(n);
    if (question === undefined) return;
    if (question.settled) continue;
    // The upstream's task id is its own: the front task names itself.
    const { [RELATED_TASK]: _upstream, ...meta } = (question.params._meta ?? {}) as Record<string, unknown>;
    const params = { ...question.params };
    if (Object.keys(meta).length > 0) params._meta = meta;
    else delete params._meta;
    try {
      question.resolve(await askFront(front, call, n, { ...question, params }));
    } catch (error) {
      question.reject(error);
    }
  }
}
