/**
 * Keeps an `McpServer`'s tools, resources, resource templates and prompts in step with those of its
 * upstream servers, each forwarding to the server that offers it. Registering and removing through
 * the `McpServer` is what tells connected clients that a list changed.
 */
import type { McpClient } from "../client/client.js";
import type { MultiServerClient } from "../client/multi/multi-client.js";
import type { MultiServerTool } from "../client/multi/router.js";
import type { ToolOutput } from "../client/tool.js";
import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { StandardSchemaV1 } from "../protocol/schema/standard.js";
import type { CompleteReference } from "../protocol/types/completion.js";
import type { Prompt } from "../protocol/types/prompts.js";
import type { Resource, ResourceTemplate } from "../protocol/types/resources.js";
import type { CallToolResult, JsonSchema } from "../protocol/types/tools.js";
import { UriTemplate } from "../protocol/uri-template.js";
import type { Completer } from "../server/completion.js";
import type { RequestContext } from "../server/context.js";
import type { PromptArgumentSpec } from "../server/prompts.js";
import type { McpServer } from "../server/server.js";
import { type AuditOutcome, type AuditSink, digestArguments } from "./audit.js";
import type { ToolPolicy } from "./filter.js";

/** The upstream servers of a proxy, and how their names are shown. */
export interface Upstreams {
  readonly multi: MultiServerClient;
  readonly policy: ToolPolicy;
  /** The name a server goes by in rules, the audit log and log messages. */
  label(server: string): string;
  /** The name clients see for a tool. */
  toolName(tool: MultiServerTool): string;
  /** The names clients see for one server's prompts, in order. */
  promptNames(server: string, prompts: readonly Prompt[]): string[];
  /** The `logger` of a log message a server sent, as clients see it. */
  logger(server: string, logger: string | undefined): string | undefined;
}

/** What the mirror reports and records. */
export interface MirrorOptions {
  audit?: AuditSink | undefined;
  onWarning?: ((message: string) => void) | undefined;
}

/** A registration: which server it forwards to, and what it was made from (to notice changes). */
interface Registered {
  server: string;
  fingerprint: string;
}

/** A JSON Schema as the `McpServer` takes it, listed as it is and never checked: the upstream checks. */
function verbatim(schema: JsonSchema): StandardSchemaV1<Record<string, unknown>> {
  return {
    "~standard": {
      version: 1,
      vendor: "mcpkit-proxy",
      validate: (value) => ({ value: value as Record<string, unknown> }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}

/** What a tool returned, as the result to send on. */
function resultOf(output: ToolOutput): CallToolResult {
  const result: CallToolResult = { content: output.content };
  if (output.structuredContent !== undefined) result.structuredContent = output.structuredContent;
  if (output.isError) result.isError = true;
  return result;
}

const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Lists with `list`, or nothing when the server answers that it has no such method: a stateless
 * server stops declaring a capability once the last item of its kind is removed.
 */
async function listOrNone<T>(list: () => Promise<T[]>): Promise<T[]> {
  try {
    return await list();
  } catch (error) {
    if (error instanceof McpError && error.code === ErrorCode.MethodNotFound) return [];
    throw error;
  }
}

/** `value` without its `key` member. */
function without<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

/**
 * Mirrors the upstreams onto `server`. Tools are re-read on each upstream's `tools/list_changed`
 * (and after a reconnect), resources, templates and prompts on theirs; what changed is removed
 * and registered again, so each downstream client gets one `list_changed` per list.
 */
export class Mirror {
  private readonly tools = new Map<string, Registered>();
  private readonly resources = new Map<string, Registered>();
  private readonly templates = new Map<string, Registered>();
  private readonly prompts = new Map<string, Registered>();
  /** Per server: the listeners on its current client. */
  private readonly followers = new Map<string, () => void>();
  /** Per server: resource and prompt syncs run one after another. */
  private readonly queues = new Map<string, Promise<void>>();
  private readonly unsubscribe: (() => void)[] = [];
  private readonly warned = new Set<string>();
  private closed = false;

  constructor(
    private readonly server: McpServer,
    private readonly upstreams: Upstreams,
    private readonly options: MirrorOptions = {},
  ) {}

  /** Registers everything the connected upstreams offer, and follows their changes. */
  async start(): Promise<void> {
    const { multi } = this.upstreams;
    this.unsubscribe.push(
      multi.on("toolsChanged", () => this.syncTools()),
      multi.on("stateChanged", ({ server, state }) => {
        if (state === "connected") void this.follow(server);
      }),
    );
    this.syncTools();
    const health = multi.health();
    await Promise.all(
      multi.servers.filter((name) => health[name]?.state === "connected").map((name) => this.follow(name)),
    );
  }

  /** Stops following the upstreams (they are closed by their owner). */
  stop(): void {
    this.closed = true;
    for (const off of this.unsubscribe.splice(0)) off();
    for (const off of this.followers.values()) off();
    this.followers.clear();
  }

  /** The tools clients see: their names, servers and names upstream. */
  exposedTools(): { name: string; server: string; tool: string }[] {
    return this.currentTools().map((tool) => ({
      name: this.upstreams.toolName(tool),
      server: this.labelOf(tool.server),
      tool: tool.definition.name,
    }));
  }

  /** How many tools of each server the allow and deny lists hide. */
  hiddenTools(): Record<string, number> {
    const hidden: Record<string, number> = {};
    for (const tool of this.upstreams.multi.tools()) {
      const server = this.labelOf(tool.server);
      if (!this.exposes(tool)) hidden[server] = (hidden[server] ?? 0) + 1;
    }
    return hidden;
  }

  private exposes(tool: MultiServerTool): boolean {
    return this.upstreams.policy.allows(this.upstreams.label(tool.server), tool.definition.name);
  }

  private currentTools(): MultiServerTool[] {
    const upstreams = this.upstreams;
    return upstreams.multi.tools({
      exclude: (tool, server) => !upstreams.policy.allows(upstreams.label(server), tool.name),
    });
  }

  private warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.options.onWarning?.(message);
  }

  // ----- tools -----

  /** Registers the tools the upstreams list now, removing the ones gone or changed. */
  private syncTools(): void {
    if (this.closed) return;
    const desired = new Map<string, MultiServerTool>();
    for (const tool of this.currentTools()) desired.set(this.upstreams.toolName(tool), tool);
    const fingerprint = (tool: MultiServerTool) => JSON.stringify(tool.definition);
    for (const [name, registered] of this.tools) {
      const tool = desired.get(name);
      if (tool && tool.server === registered.server && fingerprint(tool) === registered.fingerprint) continue;
      this.server.removeTool(name);
      this.tools.delete(name);
    }
    for (const [name, tool] of desired) {
      if (this.tools.has(name)) continue;
      const { definition } = tool;
      try {
        this.server.tool(
          name,
          {
            title: definition.title,
            description: definition.description,
            input: verbatim(definition.inputSchema),
            output: definition.outputSchema ? verbatim(definition.outputSchema) : undefined,
            annotations: definition.annotations,
            icons: definition.icons,
            _meta: definition._meta,
          },
          this.toolHandler(tool),
        );
        this.tools.set(name, { server: tool.server, fingerprint: fingerprint(tool) });
      } catch (error) {
        this.warn(
          `tool "${definition.name}" of ${this.labelOf(tool.server)} left out: ${describeError(error)}`,
        );
      }
    }
  }

  /** Forwards a call with its progress and cancellation, and writes its audit line before answering. */
  private toolHandler(tool: MultiServerTool) {
    return async (args: Record<string, unknown>, ctx: RequestContext): Promise<CallToolResult> => {
      const time = new Date().toISOString();
      const started = performance.now();
      const argsDigest = digestArguments(args);
      let outcome: AuditOutcome = "error";
      try {
        const output = await tool.invoke(args, {
          signal: ctx.signal,
          onProgress: ({ progress, total, message }) => ctx.progress(progress, total, message),
        });
        outcome = output.isError ? "tool_error" : "ok";
        return resultOf(output);
      } catch (error) {
        if (ctx.signal.aborted) outcome = "cancelled";
        throw error;
      } finally {
        const durationMs = Math.round(performance.now() - started);
        const server = this.labelOf(tool.server);
        try {
          await this.options.audit?.({
            time,
            server,
            tool: tool.definition.name,
            argsDigest,
            outcome,
            durationMs,
          });
        } catch (error) {
          this.options.onWarning?.(
            `audit: could not record a call of ${tool.definition.name}: ${describeError(error)}`,
          );
        }
      }
    };
  }

  private labelOf(server: string): string {
    return this.upstreams.label(server);
  }

  // ----- resources, templates, prompts -----

  /** Follows the server's current client: its list changes, logs and resource updates. */
  private follow(server: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    let client: McpClient;
    try {
      client = this.upstreams.multi.client(server);
    } catch {
      return Promise.resolve();
    }
    this.followers.get(server)?.();
    const offs = [
      client.on(
        "resourcesListChanged",
        () => void this.enqueue(server, () => this.syncResources(server, client)),
      ),
      client.on(
        "promptsListChanged",
        () => void this.enqueue(server, () => this.syncPrompts(server, client)),
      ),
      client.on("resourceUpdated", ({ uri }) => {
        if (this.resources.get(uri)?.server === server) this.server.resourceUpdated(uri);
      }),
      client.on("log", ({ level, logger, data }) =>
        this.server.log(level, data, this.upstreams.logger(server, logger)),
      ),
    ];
    // Ask for every message: each client of the proxy gets those its own level lets through.
    if (client.capabilities.logging) client.setLoggingLevel("debug").catch(() => {});
    this.followers.set(server, () => {
      for (const off of offs) off();
    });
    return this.enqueue(server, async () => {
      await this.syncResources(server, client);
      await this.syncPrompts(server, client);
    });
  }

  /** Runs `work` after the server's syncs before it; never rejects. */
  private enqueue(server: string, work: () => Promise<void>): Promise<void> {
    const next = (this.queues.get(server) ?? Promise.resolve()).then(work).catch((error: unknown) => {
      this.warn(`${this.labelOf(server)}: ${describeError(error)}`);
    });
    this.queues.set(server, next);
    return next;
  }

  /** Whether `client` is still the server's live client (a reconnect replaces it). */
  private current(server: string, client: McpClient): boolean {
    if (this.closed) return false;
    try {
      return this.upstreams.multi.client(server) === client;
    } catch {
      return false;
    }
  }

  /** The live client of a server, for a forwarded request. */
  private clientOf(server: string): McpClient {
    return this.upstreams.multi.client(server);
  }

  private async syncResources(server: string, client: McpClient): Promise<void> {
    if (!this.current(server, client)) return;
    let resources: Resource[] = [];
    let templates: ResourceTemplate[] = [];
    if (client.capabilities.resources) {
      try {
        [resources, templates] = await Promise.all([
          listOrNone(() => client.listResources()),
          listOrNone(() => client.listResourceTemplates()),
        ]);
      } catch (error) {
        this.warn(`${this.labelOf(server)}: could not list resources: ${describeError(error)}`);
        return;
      }
      if (!this.current(server, client)) return;
    }
    const completes = client.capabilities.completions !== undefined;
    this.apply(
      server,
      this.resources,
      new Map(resources.map((resource) => [resource.uri, resource])),
      (resource) => JSON.stringify(resource),
      (uri, resource) => {
        this.server.resource(uri, without(resource, "uri"), (_uri, ctx) =>
          this.clientOf(server).readResource(uri, { signal: ctx.signal }),
        );
      },
      (uri) => this.server.removeResource(uri),
      "resource",
    );
    this.apply(
      server,
      this.templates,
      new Map(templates.map((template) => [template.uriTemplate, template])),
      (template) => JSON.stringify({ template, completes }),
      (uriTemplate, template) => {
        const variables = new UriTemplate(uriTemplate).variableNames;
        const ref: CompleteReference = { type: "ref/resource", uri: uriTemplate };
        this.server.resourceTemplate(
          uriTemplate,
          without(template, "uriTemplate"),
          (uri, _variables, ctx) => this.clientOf(server).readResource(uri, { signal: ctx.signal }),
          completes
            ? {
                complete: Object.fromEntries(
                  variables.map((name) => [name, this.completer(server, ref, name)]),
                ),
              }
            : {},
        );
      },
      (uriTemplate) => this.server.removeResource(uriTemplate),
      "resource template",
    );
  }

  private async syncPrompts(server: string, client: McpClient): Promise<void> {
    if (!this.current(server, client)) return;
    let prompts: Prompt[] = [];
    if (client.capabilities.prompts) {
      try {
        prompts = await listOrNone(() => client.listPrompts());
      } catch (error) {
        this.warn(`${this.labelOf(server)}: could not list prompts: ${describeError(error)}`);
        return;
      }
      if (!this.current(server, client)) return;
    }
    const completes = client.capabilities.completions !== undefined;
    const names = this.upstreams.promptNames(server, prompts);
    this.apply(
      server,
      this.prompts,
      new Map(prompts.map((prompt, i) => [names[i]!, prompt])),
      (prompt) => JSON.stringify({ prompt, completes }),
      (name, prompt) => {
        const ref: CompleteReference = { type: "ref/prompt", name: prompt.name };
        const specs: Record<string, PromptArgumentSpec> = {};
        for (const argument of prompt.arguments ?? []) {
          const spec: PromptArgumentSpec = {};
          if (argument.title !== undefined) spec.title = argument.title;
          if (argument.description !== undefined) spec.description = argument.description;
          if (argument.required) spec.required = true;
          if (completes) spec.complete = this.completer(server, ref, argument.name);
          specs[argument.name] = spec;
        }
        this.server.prompt(
          name,
          {
            title: prompt.title,
            description: prompt.description,
            arguments: prompt.arguments?.length ? specs : undefined,
            icons: prompt.icons,
            _meta: prompt._meta,
          },
          (args, ctx) => {
            const strings: Record<string, string> = {};
            for (const [key, value] of Object.entries(args)) if (value !== undefined) strings[key] = value;
            return this.clientOf(server).getPrompt(prompt.name, strings, { signal: ctx.signal });
          },
        );
      },
      (name) => this.server.removePrompt(name),
      "prompt",
    );
  }

  /** Completes one prompt argument or template variable on the upstream. */
  private completer(server: string, ref: CompleteReference, name: string): Completer {
    return (value, { arguments: context }) =>
      this.clientOf(server).complete(
        ref,
        { name, value },
        Object.keys(context).length > 0 ? context : undefined,
      );
  }

  /**
   * Brings one server's share of `registered` to `desired`: removes what is gone or changed, then
   * registers what is new. A key another server already registered stays theirs (with a warning).
   */
  private apply<T>(
    server: string,
    registered: Map<string, Registered>,
    desired: Map<string, T>,
    fingerprint: (item: T) => string,
    add: (key: string, item: T) => void,
    remove: (key: string) => void,
    what: string,
  ): void {
    if (this.closed) return;
    for (const [key, entry] of registered) {
      if (entry.server !== server) continue;
      const item = desired.get(key);
      if (item !== undefined && fingerprint(item) === entry.fingerprint) continue;
      remove(key);
      registered.delete(key);
    }
    for (const [key, item] of desired) {
      const owner = registered.get(key);
      if (owner) {
        if (owner.server !== server) {
          this.warn(
            `${what} ${key} of ${this.labelOf(server)} left out: ${this.labelOf(owner.server)} offers it too`,
          );
        }
        continue;
      }
      try {
        add(key, item);
        registered.set(key, { server, fingerprint: fingerprint(item) });
      } catch (error) {
        this.warn(`${what} ${key} of ${this.labelOf(server)} left out: ${describeError(error)}`);
      }
    }
  }
}
