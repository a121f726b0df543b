/**
 * Who may use which of a proxy's tools, by the verified caller: on top of the allow and deny lists,
 * which hold for everyone.
 */
import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { AuthInfo } from "../protocol/transport.js";
import { matchesPattern, type ParsedRule, parseToolRule, type ToolRule } from "./filter.js";

/**
 * One rule: the tools it covers (`"tool"` or `"server/tool"`, `*` wildcards), and who may use them.
 * A tool several rules cover must satisfy each.
 */
export interface AccessRule {
  tools: ToolRule | readonly ToolRule[];
  /**
   * Scopes the caller's token must grant: the tools declare them, so a caller without them gets a
   * 403 `insufficient_scope` (and, with the server option `hideUnauthorized`, does not see them).
   */
  scopes?: readonly string[];
  /** The subjects (`sub`) that may call them; anyone else is refused. */
  subjects?: readonly string[];
}

interface Rule {
  tools: ParsedRule[];
  scopes: readonly string[];
  subjects: readonly string[] | undefined;
}

/** The access rules of a proxy, checked when given. */
export class AccessPolicy {
  private readonly rules: Rule[];

  constructor(rules: readonly AccessRule[] = []) {
    this.rules = rules.map((rule, index) => {
      const tools = typeof rule.tools === "string" ? [rule.tools] : rule.tools;
      if (!Array.isArray(tools) || tools.length === 0)
        throw new TypeError(`access rule ${index + 1} names no tools`);
      if (rule.scopes === undefined && rule.subjects === undefined)
        throw new TypeError(`access rule ${index + 1} says neither scopes nor subjects`);
      return { tools: tools.map(parseToolRule), scopes: rule.scopes ?? [], subjects: rule.subjects };
    });
  }

  /** The scopes a tool needs of its caller, for its registration; `undefined` for none. */
  scopesFor(server: string, tool: string): string[] | undefined {
    const scopes = new Set(this.covering(server, tool).flatMap((rule) => rule.scopes));
    return scopes.size === 0 ? undefined : [...scopes];
  }

  /** Whether some rule names subjects: what is listed then differs from caller to caller. */
  get perCaller(): boolean {
    return this.rules.some((rule) => rule.subjects !== undefined);
  }

  /** Whether a subject list of the tool leaves `caller` out (then it is not listed to them either). */
  excludes(server: string, tool: string, caller: AuthInfo | undefined): boolean {
    return this.covering(server, tool).some(
      (rule) =>
        rule.subjects !== undefined && (caller === undefined || !rule.subjects.includes(caller.subject)),
    );
  }

  /** Refuses a call by a caller no subject list of the tool names. */
  checkSubject(server: string, tool: string, caller: AuthInfo | undefined): void {
    for (const rule of this.covering(server, tool)) {
      if (rule.subjects === undefined) continue;
      if (caller === undefined || !rule.subjects.includes(caller.subject)) {
        throw new McpError(
          ErrorCode.ServerError,
          `Forbidden: tool ${tool} of ${server} is not for ${caller ? `subject ${caller.subject}` : "callers without a token"}`,
        );
      }
    }
  }

  private covering(server: string, tool: string): Rule[] {
    return this.rules.filter((rule) =>
      rule.tools.some(
        (pattern) =>
          (pattern.server === undefined || pattern.server === server) && matchesPattern(pattern.tool, tool),
      ),
    );
  }
}
