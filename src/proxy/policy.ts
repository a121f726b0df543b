/**
 * The gateway's policy per tool: who may call it (allow and deny by glob, per caller), what its
 * arguments must also satisfy (a JSON Schema the policy adds), and whether a person must approve
 * each call first (asked through elicitation). A `policy` middleware applies it before forwarding.
 */
import { validatorOf } from "../protocol/schema/validate.js";
import type { AuthInfo } from "../protocol/transport.js";
import type { ElicitResult } from "../protocol/types/client-features.js";
import type { JsonSchema } from "../protocol/types/tools.js";
import { matchesPattern, type ParsedRule, parseToolRule, type ToolRule } from "./filter.js";
import { refusal, type ToolCallContext, type ToolCallMiddleware } from "./middleware.js";

/**
 * One rule of the policy. It covers the tools `tools` matches (`"tool"` or `"server/tool"`, `*`
 * wildcards: the names on the upstream) for the callers `callers` names (every caller without it).
 */
export interface PolicyRule {
  tools: ToolRule | readonly ToolRule[];
  /**
   * The callers the rule is for: token subjects (`sub`), or `client:<id>` for an OAuth client.
   * A caller without a token (stdio, a front without `auth`) is none of them.
   */
  callers?: readonly string[];
  /**
   * `deny`: the covered callers may not call these tools. `allow`: only callers some `allow` rule
   * of the tool covers may call it. Deny wins.
   */
  action?: "allow" | "deny";
  /**
   * Ask a person before each call, by elicitation, showing the tool and its arguments; anything
   * but an accept refuses the call. `"unless-read-only"` skips the question for a tool a
   * `trusted` upstream marks `readOnlyHint` (an untrusted upstream's hint counts for nothing).
   */
  approval?: boolean | "unless-read-only";
  /** A JSON Schema the arguments must also satisfy, checked before forwarding. */
  arguments?: JsonSchema;
}

type Validate = ReturnType<typeof validatorOf>;

interface Rule {
  tools: ParsedRule[];
  callers: readonly string[] | undefined;
  action: "allow" | "deny" | undefined;
  approval: boolean | "unless-read-only";
  arguments: { schema: JsonSchema; validate: Validate } | undefined;
}

/** The key of the elicitation that asks for approval: the same on every round of a stateless request. */
const APPROVAL_KEY = "proxy/approval";

/** Whether `caller` is one of `callers`. */
function isOneOf(callers: readonly string[], caller: AuthInfo | undefined): boolean {
  if (caller === undefined) return false;
  return callers.some((entry) =>
    entry.startsWith("client:") ? entry.slice(7) === caller.clientId : entry === caller.subject,
  );
}

/** The policy's rules, checked once; throws a `TypeError` naming the rule that is wrong. */
export class GatewayPolicy {
  private readonly rules: Rule[];

  constructor(rules: readonly PolicyRule[] = []) {
    this.rules = rules.map((rule, index) => {
      const where = `policy rule ${index + 1}`;
      const tools = typeof rule.tools === "string" ? [rule.tools] : rule.tools;
      if (!Array.isArray(tools) || tools.length === 0) throw new TypeError(`${where} names no tools`);
      if (rule.action !== undefined && rule.action !== "allow" && rule.action !== "deny")
        throw new TypeError(
          `${where}: "action" must be "allow" or "deny", not ${JSON.stringify(rule.action)}`,
        );
      if (
        rule.approval !== undefined &&
        typeof rule.approval !== "boolean" &&
        rule.approval !== "unless-read-only"
      )
        throw new TypeError(`${where}: "approval" must be true, false or "unless-read-only"`);
      if (
        rule.callers !== undefined &&
        (!Array.isArray(rule.callers) || !rule.callers.every((c) => typeof c === "string" && c !== ""))
      )
        throw new TypeError(`${where}: "callers" must be an array of subjects or client:<id>`);
      const schema = rule.arguments;
      if (schema !== undefined && (typeof schema !== "object" || schema === null || Array.isArray(schema)))
        throw new TypeError(`${where}: "arguments" must be a JSON Schema object`);
      return {
        tools: tools.map(parseToolRule),
        callers: rule.callers,
        action: rule.action,
        approval: rule.approval ?? false,
        arguments: schema ? { schema, validate: validatorOf(schema) } : undefined,
      };
    });
  }

  /** Whether the policy has no rule at all. */
  get isEmpty(): boolean {
    return this.rules.length === 0;
  }

  /** Whether some rule names its callers: what is listed then differs from caller to caller. */
  get perCaller(): boolean {
    return this.rules.some((rule) => rule.callers !== undefined);
  }

  /**
   * Why `caller` may not call `server/tool` at all (a deny rule, or allow rules naming others), or
   * `undefined` when it may: such tools are not listed to that caller either.
   */
  refusalOf(server: string, tool: string, caller: AuthInfo | undefined): "deny" | "not-allowed" | undefined {
    const rules = this.rules.filter((rule) => this.matches(rule, server, tool));
    if (rules.length === 0) return undefined;
    const forCaller = rules.filter((rule) => rule.callers === undefined || isOneOf(rule.callers, caller));
    if (forCaller.some((rule) => rule.action === "deny")) return "deny";
    const allows = rules.filter((rule) => rule.action === "allow");
    if (allows.length > 0 && !allows.some((rule) => forCaller.includes(rule))) return "not-allowed";
    return undefined;
  }

  /** The policy as a middleware: refusals are `isError` results and the upstream is never called. */
  readonly middleware: ToolCallMiddleware = async (ctx, next) => {
    const caller = ctx.request.auth;
    const rules = this.rules.filter((rule) => this.matches(rule, ctx.server, ctx.tool));
    if (rules.length === 0) return next();
    const forCaller = rules.filter((rule) => rule.callers === undefined || isOneOf(rule.callers, caller));
    const who = caller ? `subject ${caller.subject}` : "callers without a token";
    const refused = this.refusalOf(ctx.server, ctx.tool, caller);
    if (refused === "deny")
      return refusal(ctx, `Denied by the gateway's policy: ${ctx.name} is not for ${who}.`);
    if (refused === "not-allowed")
      return refusal(
        ctx,
        `Denied by the gateway's policy: ${ctx.name} is only for the callers it names, not ${who}.`,
      );
    const problems: string[] = [];
    for (const rule of forCaller) {
      if (!rule.arguments) continue;
      const checked = await rule.arguments.validate(ctx.arguments);
      if (!checked.ok) problems.push(checked.message);
    }
    if (problems.length > 0)
      return refusal(ctx, `The arguments of ${ctx.name} break the gateway's policy: ${problems.join("; ")}`);
    if (forCaller.some((rule) => needsApproval(rule, ctx))) {
      const denied = await approve(ctx);
      if (denied !== undefined) return refusal(ctx, denied);
    }
    return next();
  };

  private matches(rule: Rule, server: string, tool: string): boolean {
    return rule.tools.some(
      (pattern) =>
        (pattern.server === undefined || pattern.server === server) && matchesPattern(pattern.tool, tool),
    );
  }
}

function needsApproval(rule: Rule, ctx: ToolCallContext): boolean {
  if (rule.approval === "unless-read-only") return !(ctx.trusted && ctx.annotations?.readOnlyHint === true);
  return rule.approval;
}

/** Asks the person; `undefined` when they approved, else why the call is refused. */
async function approve(ctx: ToolCallContext): Promise<string | undefined> {
  const request = ctx.request;
  if (!request.clientCapabilities.elicitation)
    return `${ctx.name} needs a person's approval, and this client cannot ask one (it does not declare elicitation).`;
  const args = JSON.stringify(ctx.arguments, null, 2);
  let answer: ElicitResult;
  try {
    answer = await request.elicit(
      {
        message: `Allow ${ctx.name} (${ctx.tool} on ${ctx.server}) to run with these arguments?\n${args}`,
        requestedSchema: { type: "object", properties: {} },
      },
      { key: APPROVAL_KEY, signal: request.signal },
    );
  } catch (error) {
    if (request.signal.aborted) throw error;
    return `${ctx.name} needs a person's approval, which could not be asked: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (answer.action === "accept") return undefined;
  return `The user ${answer.action === "decline" ? "declined" : "cancelled"} the call of ${ctx.name}; it did not run.`;
}
