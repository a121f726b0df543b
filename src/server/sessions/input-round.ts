import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { RequestStateSigner } from "./request-state.js";

/** The methods a server may ask the client through `inputRequests`. */
export type InputMethod = "elicitation/create" | "sampling/createMessage" | "roots/list";

/** An interim result: the client answers `inputRequests` and retries with `inputResponses`. */
export interface InputRequiredResult {
  resultType: "input_required";
  inputRequests?: Record<string, { method: InputMethod; params?: Record<string, unknown> }>;
  requestState?: string;
  [key: string]: unknown;
}

/** What makes an answer well-formed, per method. */
const WELL_FORMED: Record<InputMethod, (answer: Record<string, unknown>) => boolean> = {
  "elicitation/create": (a) => a.action === "accept" || a.action === "decline" || a.action === "cancel",
  "sampling/createMessage": (a) =>
    typeof a.role === "string" && typeof a.content === "object" && a.content !== null,
  "roots/list": (a) => Array.isArray(a.roots),
};

/**
 * One round of a multi round-trip request (2026-07-28). A handler runs from the start on every
 * round; each `ask` it makes is answered from this round's `inputResponses` or the answers the
 * signed `requestState` carries from earlier rounds (for the caller it was issued to alone). An
 * `ask` with no answer yet parks the handler and, once the handler has made every ask it can, the
 * round ends with an `InputRequiredResult`.
 * Handlers must therefore ask the same questions in the same order on every round.
 */
export class InputRound {
  private readonly answers: Record<string, unknown>;
  private readonly requests: NonNullable<InputRequiredResult["inputRequests"]> = {};
  private readonly counters = new Map<string, number>();
  private asked = false;

  constructor(
    params: Record<string, unknown>,
    private readonly target: string,
    private readonly signer: RequestStateSigner,
    /** Whom the request's credentials name; a state is answered only for the caller it was issued to. */
    private readonly caller: string | undefined,
    /** Called once the handler is waiting for input it does not have. */
    private readonly onNeeded: () => void,
  ) {
    const earlier =
      params.requestState === undefined ? {} : signer.verify(params.requestState, target, caller);
    const responses = params.inputResponses;
    if (
      responses !== undefined &&
      (typeof responses !== "object" || responses === null || Array.isArray(responses))
    ) {
      throw new McpError(ErrorCode.InvalidParams, "Invalid params: inputResponses must be an object");
    }
    this.answers = { ...earlier, ...(responses as Record<string, unknown> | undefined) };
  }

  /** The answer to `key`, or a promise that never settles while the round asks for it. */
  ask(method: InputMethod, params: Record<string, unknown> | undefined, key?: string): Promise<unknown> {
    const n = (this.counters.get(method) ?? 0) + 1;
    this.counters.set(method, n);
    const name = key ?? `${method}#${n}`;
    if (name in this.answers) {
      const answer = this.answers[name];
      if (
        typeof answer !== "object" ||
        answer === null ||
        !WELL_FORMED[method](answer as Record<string, unknown>)
      ) {
        return Promise.reject(
          new McpError(
            ErrorCode.InvalidParams,
            `Invalid params: inputResponses.${name} is not a valid ${method} result`,
          ),
        );
      }
      return Promise.resolve(answer);
    }
    this.requests[name] = params === undefined ? { method } : { method, params };
    if (!this.asked) {
      this.asked = true;
      // Asks made together (Promise.all) land in the same round.
      setImmediate(this.onNeeded);
    }
    return new Promise(() => {});
  }

  /** The interim result: every open question, and the answers so far, signed. */
  result(): InputRequiredResult {
    return {
      resultType: "input_required",
      inputRequests: this.requests,
      requestState: this.signer.sign(this.target, this.answers, this.caller),
    };
  }
}
