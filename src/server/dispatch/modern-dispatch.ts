import { fixedJson } from "../../jsonrpc/fixed-json.js";
import type { ResultStamp } from "../../protocol/eras/era.js";
import { modern } from "../../protocol/eras/modern.js";
import { META } from "../../protocol/eras/request-meta.js";
import type { Implementation } from "../../protocol/types/base.js";
import { principalOf } from "../../transports/http/shared/authenticate.js";
import type { RequestContext } from "../sessions/context.js";
import { InputRound } from "../sessions/input-round.js";
import type { RequestStateSigner } from "../sessions/request-state.js";

/** The `_meta` a server adds to every stateless result: its identity, serialized once. */
export function serverMetaOf(serverInfo: Implementation): Readonly<Record<string, unknown>> {
  return fixedJson({ [META.serverInfo]: serverInfo });
}

/**
 * Lets a handler ask for input: its request then ends with an `InputRequiredResult`, decorated
 * with `stamp`, as soon as the handler waits for answers the client has not given yet, while the
 * handler itself never returns. Answers brought from an earlier round (`requestState`,
 * `inputResponses`) are checked now, before the handler runs: a state altered, expired, or issued
 * to another caller is -32602, and the handler's work up to its first question is never done.
 */
export function openInputRounds(
  method: string,
  subject: (params: Record<string, unknown>) => unknown,
  params: Record<string, unknown>,
  ctx: RequestContext,
  signer: RequestStateSigner,
  stamp: ResultStamp,
): void {
  let round: InputRound | undefined;
  ctx.round = () => {
    round ??= new InputRound(
      params,
      `${method} ${String(subject(params))}`,
      signer,
      ctx.auth && principalOf(ctx.auth),
      () => {
        try {
          ctx.request.answer(modern.decorate(method, round!.result(), stamp));
        } catch (error) {
          ctx.request.answer(undefined, modern.mapError(error));
        }
      },
    );
    return round;
  };
  // Otherwise the round is made once the handler asks something: most calls never do.
  if (params.requestState !== undefined || params.inputResponses !== undefined) ctx.round();
}
