/** The audit and access checks of the proxy's calls, as middlewares. */
import { isoTime } from "../util/iso-time.js";
import type { AccessPolicy } from "./access.js";
import { type AuditRecord, type AuditSink, digestArguments } from "./audit.js";
import { describeError } from "./forward.js";
import { AbandonedCall } from "./forwarded-call.js";
import type { CallOutcome, ToolCallMiddleware } from "./middleware.js";

/**
 * Writes one record per call to `sink`, after the call and before its answer: who called, which
 * tool of which upstream, a digest of the arguments, how it ended, the result's size and how long
 * it took. A failing sink is reported to `onWarning` and does not fail the call. A stateless round
 * that ends asking for input writes nothing: the round that ends the call does, or, if the caller
 * never comes back within `inputTimeout`, the last round writes `abandoned`.
 */
export function auditMiddleware(
  sink: AuditSink,
  onWarning: ((message: string) => void) | undefined,
): ToolCallMiddleware {
  return async (ctx, next) => {
    const time = isoTime(Date.now());
    const started = performance.now();
    const argsDigest = digestArguments(ctx.arguments);
    let outcome: CallOutcome = "error";
    let resultSize: number | undefined;
    try {
      const result = await next();
      // The server makes a cancelled call's error a result: the request tells (asked without
      // making its signal).
      if (ctx.request.request.cancelled) {
        outcome = "cancelled";
        return result;
      }
      outcome = ctx.refused !== undefined ? "denied" : result.isError ? "tool_error" : "ok";
      resultSize = ctx.resultSize ?? Buffer.byteLength(JSON.stringify(result));
      return result;
    } catch (error) {
      if (error instanceof AbandonedCall) outcome = "abandoned";
      else if (ctx.request.request.cancelled) outcome = "cancelled";
      throw error;
    } finally {
      const record: AuditRecord = {
        time,
        server: ctx.server,
        tool: ctx.tool,
        argsDigest,
        outcome,
        durationMs: Math.round(performance.now() - started),
      };
      if (resultSize !== undefined) record.resultSize = resultSize;
      const auth = ctx.request.auth;
      if (auth) {
        record.subject = auth.subject;
        if (auth.clientId !== undefined) record.clientId = auth.clientId;
      }
      try {
        await sink(record);
      } catch (error) {
        onWarning?.(`audit: could not record a call of ${ctx.tool}: ${describeError(error)}`);
      }
    }
  };
}

/** Refuses callers the access rules' subject lists leave out (scopes are checked by the server). */
export function accessMiddleware(access: AccessPolicy): ToolCallMiddleware {
  return (ctx, next) => {
    access.checkSubject(ctx.server, ctx.tool, ctx.request.auth);
    return next();
  };
}
