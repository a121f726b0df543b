/**
 * The proxy's tools: those the upstreams list and the filters let through, shown as the overrides
 * say, each call run through the middlewares (audit, access, policy, the caller's own) and then
 * forwarded to its upstream.
 */
import type { MultiServerTool } from "../client/multi/router.js";
import type { CallToolResult } from "../protocol/types/tools.js";
import type { ServerMiddleware } from "../server/dispatch/middleware.js";
import { type MiddlewarePlace, placed } from "../server/dispatch/order.js";
import type { McpServer } from "../server/server.js";
import type { RequestContext } from "../server/sessions/context.js";
import { accessMiddleware, auditMiddleware } from "./audit-middleware.js";
import { describeError, verbatim } from "./forward.js";
import { forwardCall } from "./forward-call.js";
import { forwardTask } from "./forward-task.js";
import { UpstreamGate } from "./limits.js";
import { type CallRoute, callContext, type ToolCallContext, type ToolCallMiddleware } from "./middleware.js";
import type { MirrorOptions, Upstreams } from "./mirror-options.js";
import type { Registered } from "./mirror-sync.js";
import { NameBindings, shownAnnotations } from "./overrides.js";
import type { ForwardedCalls } from "./questions.js";

/** A tool to register: the name clients see, and the upstream tool. */
interface Wanted {
  name: string;
  tool: MultiServerTool;
}

/** Keeps the `McpServer`'s tools in step with the upstreams'. */
export class ToolMirror {
  private readonly tools = new Map<string, Registered>();
  /** Per server: its calls in flight and waiting, apart from every other server's. */
  private readonly gates = new Map<string, UpstreamGate>();
  private readonly bindings = new NameBindings();
  /** The registered names, for the `tools/call` middleware. */
  private readonly routes = new Map<string, CallRoute>();
  /** Each call's typed view, made by its first step, for the others and the forwarding to fill in. */
  private readonly contexts = new WeakMap<RequestContext, ToolCallContext>();

  constructor(
    private readonly server: McpServer,
    private readonly upstreams: Upstreams,
    private readonly options: MirrorOptions,
    private readonly calls: ForwardedCalls,
    private readonly warn: (message: string) => void,
  ) {}

  /**
   * The proxy's steps of a call as `tools/call` middleware of its server, each at its place of
   * `MIDDLEWARE_ORDER`: the access rules and the policy at `policy`, the audit log at `audit`, the
   * caller's own at `use`. A call the access rules or the policy refuse never reaches the audit
   * step; the refusing step records it in the same log.
   */
  serverMiddleware(): ServerMiddleware<"tools/call">[] {
    const { audit, access, policy, middleware = [] } = this.options;
    const audited = audit ? auditMiddleware(audit, this.options.onWarning) : undefined;
    return [
      ...(access ? [this.step("policy", accessMiddleware(access), audited)] : []),
      ...(policy ? [this.step("policy", policy.middleware, audited)] : []),
      ...(audited ? [this.step("audit", audited, undefined)] : []),
      ...middleware.map((step) => this.step("use", step, undefined)),
    ];
  }

  /**
   * A step as server middleware: it sees the call's typed view (one per request context, shared
   * by the steps), and the arguments it leaves are what the rest of the chain gets. With `audited`,
   * a call the step answers without `next()`, or refuses by throwing, is recorded through it.
   */
  private step(
    place: MiddlewarePlace,
    step: ToolCallMiddleware,
    audited: ToolCallMiddleware | undefined,
  ): ServerMiddleware<"tools/call"> {
    const middleware: ServerMiddleware<"tools/call"> = (call, next) => {
      const route = this.routes.get(call.params.name);
      const request = call.request;
      if (route === undefined || request === undefined) return next();
      let ctx = this.contexts.get(request);
      if (ctx === undefined) {
        ctx = callContext(route, request, call.params.arguments ?? {});
        this.contexts.set(request, ctx);
      }
      const view = ctx;
      let reached = false;
      let ran: Promise<CallToolResult>;
      try {
        ran = step(view, () => {
          reached = true;
          if (view.arguments !== call.params.arguments)
            call.params = { ...call.params, arguments: view.arguments };
          return next();
        });
      } catch (error) {
        // A step that refuses by throwing at once (the access rules) is a rejection like another.
        ran = Promise.reject(error);
      }
      if (audited === undefined) return ran;
      return ran.then(
        (result) => (reached ? result : audited(view, () => Promise.resolve(result))),
        (error: unknown) => {
          if (reached) throw error;
          return audited(view, () => Promise.reject(error));
        },
      );
    };
    return placed(place, middleware, ["incoming"]);
  }

  /**
   * A `tools/list` middleware leaving out, for each caller, the tools the policy or the access
   * rules refuse them outright (not those needing approval or arguments that pass); `undefined`
   * when neither has rules.
   */
  listMiddleware(): ServerMiddleware<"tools/list"> | undefined {
    const { policy, access } = this.options;
    if (!policy && !access) return undefined;
    const perCaller = policy?.perCaller === true || access?.perCaller === true;
    return async (ctx, next) => {
      const result = await next();
      const caller = ctx.auth;
      const tools = result.tools.filter((tool) => {
        const route = this.routes.get(tool.name);
        if (route === undefined) return true;
        if (policy?.refusalOf(route.server, route.tool, caller) !== undefined) return false;
        return access?.excludes(route.server, route.tool, caller) !== true;
      });
      // One caller's list is never for a shared cache, even where the server's lists are.
      if (perCaller && ctx.cacheable) return { ...result, tools, cacheScope: "private" };
      return tools.length === result.tools.length ? result : { ...result, tools };
    };
  }

  /** The tools clients see: their names, servers and names upstream. */
  exposed(): { name: string; server: string; tool: string }[] {
    return this.wanted().map(({ name, tool }) => ({
      name,
      server: this.upstreams.label(tool.server),
      tool: tool.definition.name,
    }));
  }

  /** How many tools of each server the allow and deny lists hide. */
  hidden(): Record<string, number> {
    const hidden: Record<string, number> = {};
    for (const tool of this.upstreams.multi.tools()) {
      const server = this.upstreams.label(tool.server);
      if (!this.upstreams.policy.allows(server, tool.definition.name))
        hidden[server] = (hidden[server] ?? 0) + 1;
    }
    return hidden;
  }

  /** The tools to register now, each under the name bound to it (see `NameBindings`). */
  private wanted(): Wanted[] {
    const upstreams = this.upstreams;
    const listed = upstreams.multi.tools({
      exclude: (tool, server) => !upstreams.policy.allows(upstreams.label(server), tool.name),
    });
    const wanted: Wanted[] = [];
    for (const tool of listed) {
      const server = upstreams.label(tool.server);
      const name = this.options.overrides?.of(server, tool.definition.name)?.name ?? upstreams.toolName(tool);
      const holder = this.bindings.claim(name, server, tool.definition.name);
      if (holder !== undefined) {
        this.warn(`tool "${tool.definition.name}" of ${server} left out: the name ${name} stays ${holder}'s`);
        continue;
      }
      wanted.push({ name, tool });
    }
    return wanted;
  }

  /** Registers the tools the upstreams list now, removing the ones gone or changed. */
  sync(): void {
    const desired = new Map<string, MultiServerTool>();
    for (const { name, tool } of this.wanted()) desired.set(name, tool);
    const fingerprint = (tool: MultiServerTool) => JSON.stringify(tool.definition);
    for (const [name, registered] of this.tools) {
      const tool = desired.get(name);
      if (tool && tool.server === registered.server && fingerprint(tool) === registered.fingerprint) continue;
      this.server.removeTool(name);
      this.tools.delete(name);
      this.routes.delete(name);
    }
    for (const [name, tool] of desired) {
      if (this.tools.has(name)) continue;
      try {
        this.register(name, tool);
        this.tools.set(name, { server: tool.server, fingerprint: fingerprint(tool) });
      } catch (error) {
        const server = this.upstreams.label(tool.server);
        this.warn(`tool "${tool.definition.name}" of ${server} left out: ${describeError(error)}`);
      }
    }
  }

  private register(name: string, tool: MultiServerTool): void {
    const { definition } = tool;
    const server = this.upstreams.label(tool.server);
    const override = this.options.overrides?.of(server, definition.name);
    const trusted = this.options.trusted?.(server) === true;
    const target = { tool, gate: this.gateOf(tool.server), calls: this.calls, limits: this.options };
    const store = this.options.tasks;
    const task = store ? definition.execution?.taskSupport : undefined;
    const taskTarget = store && { ...target, store, client: () => this.upstreams.multi.client(tool.server) };
    const route: CallRoute = {
      server,
      tool: definition.name,
      name,
      annotations: definition.annotations,
      trusted,
    };
    this.server.tool(
      name,
      {
        title: override?.title ?? definition.title,
        description: override?.description ?? definition.description,
        input: verbatim(definition.inputSchema),
        output: definition.outputSchema ? verbatim(definition.outputSchema) : undefined,
        annotations: shownAnnotations(definition.annotations, trusted),
        icons: definition.icons,
        _meta: definition._meta,
        scopes: this.options.access?.scopesFor(server, definition.name),
        task,
      },
      (args, request) => {
        const made = this.contexts.get(request);
        const ctx = callContext(made ?? route, request, args);
        const forwarded =
          taskTarget && request.task ? forwardTask(taskTarget, ctx) : forwardCall(target, ctx);
        if (!made) return forwarded;
        return forwarded.finally(() => {
          made.resultSize = ctx.resultSize;
        });
      },
    );
    this.routes.set(name, route);
  }

  /** The gate of one upstream's calls, made on its first call. */
  private gateOf(server: string): UpstreamGate {
    let gate = this.gates.get(server);
    if (!gate) {
      gate = new UpstreamGate(this.upstreams.label(server), this.options);
      this.gates.set(server, gate);
    }
    return gate;
  }
}
