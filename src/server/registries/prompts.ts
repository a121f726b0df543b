import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { text } from "../../protocol/features/content.js";
import { adaptContent, adaptDescription } from "../../protocol/revisions/adapt.js";
import type { Revision } from "../../protocol/revisions/revision.js";
import { exportJsonSchema } from "../../protocol/schema/json-schema.js";
import { type InferOutput, isStandardSchema, type StandardSchemaV1 } from "../../protocol/schema/standard.js";
import { type Validate, validatorOf } from "../../protocol/schema/validate.js";
import type { Icon, Meta } from "../../protocol/types/base.js";
import type { ContentBlock } from "../../protocol/types/content.js";
import type {
  GetPromptResult,
  ListPromptsResult,
  Prompt,
  PromptArgument,
  PromptMessage,
} from "../../protocol/types/prompts.js";
import { type Scopes, scopesOption, type Visible } from "../auth/scopes.js";
import type { RequestContext } from "../sessions/context.js";
import { type Completer, complete } from "./completion.js";
import { Paginator } from "./paginate.js";

/** One argument described inline, with its completer next to it. */
export interface PromptArgumentSpec {
  title?: string;
  description?: string;
  required?: boolean;
  complete?: Completer;
}

/** A prompt's arguments: a zod object of strings (any Standard Schema), or specs by name. */
export type PromptArguments = StandardSchemaV1 | Record<string, PromptArgumentSpec>;

export interface PromptConfig<A extends PromptArguments | undefined = PromptArguments | undefined> {
  title?: string;
  description?: string;
  arguments?: A;
  /** Completers by argument name (for schema-described arguments). */
  complete?: Record<string, Completer>;
  icons?: Icon[];
  _meta?: Meta;
  /** The scopes a caller's access token must grant to get (or complete) the prompt; see `ToolConfig.scopes`. */
  scopes?: string[];
}

/** The arguments a prompt handler gets. */
export type PromptArgs<A> = A extends StandardSchemaV1 ? InferOutput<A> : Record<string, string | undefined>;

/** What a prompt handler may return: one user message as text, messages, or a full result. */
export type PromptReturn = string | PromptMessage[] | GetPromptResult;

export type PromptHandler<Args> = (args: Args, ctx: RequestContext) => PromptReturn | Promise<PromptReturn>;

class RegisteredPrompt {
  readonly description: Prompt;
  readonly completers: Record<string, Completer>;
  readonly scopes: Scopes;
  /** The Standard Schema the arguments are checked with; its validator is built on first use. */
  private readonly schema: StandardSchemaV1 | undefined;
  private validator: Validate | undefined;
  private readonly required: string[];

  constructor(
    name: string,
    config: PromptConfig,
    readonly handler: PromptHandler<any>,
  ) {
    const { title, description, icons, _meta } = config;
    const args = config.arguments;
    this.scopes = scopesOption(config.scopes, `prompt "${name}"`);
    this.completers = { ...config.complete };
    let list: PromptArgument[] = [];
    if (isStandardSchema(args)) {
      this.schema = args;
      const json = exportJsonSchema(args, "input") as {
        properties?: Record<string, { description?: string; title?: string }>;
        required?: string[];
      };
      const required = new Set(json.required ?? []);
      list = Object.entries(json.properties ?? {}).map(([argName, property]) =>
        argument(argName, {
          description: property.description,
          title: property.title,
          required: required.has(argName),
        }),
      );
    } else if (args) {
      list = Object.entries(args).map(([argName, spec]) => {
        if (spec.complete) this.completers[argName] = spec.complete;
        return argument(argName, spec);
      });
    }
    this.required = list.filter((a) => a.required).map((a) => a.name);
    for (const argName of Object.keys(this.completers)) {
      if (!list.some((a) => a.name === argName))
        throw new TypeError(`Prompt "${name}" has no argument "${argName}" to complete`);
    }
    const prompt: Prompt = { name };
    if (title !== undefined) prompt.title = title;
    if (description !== undefined) prompt.description = description;
    if (list.length > 0) prompt.arguments = list;
    if (icons !== undefined) prompt.icons = icons;
    if (_meta !== undefined) prompt._meta = _meta;
    this.description = prompt;
  }

  /** Checks the arguments: required ones present, all strings, then the schema if there is one. */
  async check(args: Record<string, unknown>): Promise<unknown> {
    const name = this.description.name;
    for (const required of this.required) {
      if (args[required] === undefined) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Missing required argument "${required}" for prompt ${name}`,
        );
      }
    }
    for (const [key, value] of Object.entries(args)) {
      if (typeof value !== "string")
        throw new McpError(ErrorCode.InvalidParams, `Argument "${key}" of prompt ${name} must be a string`);
    }
    if (!this.schema) return args;
    this.validator ??= validatorOf(this.schema);
    const checked = await this.validator(args);
    if (!checked.ok)
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for prompt ${name}: ${checked.message}`);
    return checked.value;
  }
}

function argument(name: string, spec: PromptArgumentSpec): PromptArgument {
  const arg: PromptArgument = { name };
  if (spec.title !== undefined) arg.title = spec.title;
  if (spec.description !== undefined) arg.description = spec.description;
  if (spec.required) arg.required = true;
  return arg;
}

function toPromptResult(value: PromptReturn, description: string | undefined): GetPromptResult {
  const result: GetPromptResult =
    typeof value === "string"
      ? { messages: [{ role: "user", content: text(value) as ContentBlock }] }
      : Array.isArray(value)
        ? { messages: value }
        : value;
  if (result.description === undefined && description !== undefined) return { description, ...result };
  return result;
}

/** The prompts of one server. */
export class PromptRegistry {
  private readonly prompts = new Map<string, RegisteredPrompt>();
  private readonly pages: Paginator<RegisteredPrompt>;

  constructor(
    pageSize: number,
    private readonly onChange: () => void,
  ) {
    this.pages = new Paginator(
      pageSize,
      () => this.prompts.values(),
      (prompt) => prompt.description.name,
    );
  }

  get size(): number {
    return this.prompts.size;
  }

  /** Whether any prompt has a completer. */
  get completes(): boolean {
    for (const prompt of this.prompts.values()) if (Object.keys(prompt.completers).length > 0) return true;
    return false;
  }

  add(name: string, config: PromptConfig<any>, handler: PromptHandler<any>): void {
    if (this.prompts.has(name)) throw new Error(`A prompt named "${name}" is already registered`);
    this.prompts.set(name, new RegisteredPrompt(name, config, handler));
    this.pages.invalidate();
    this.onChange();
  }

  remove(name: string): boolean {
    const removed = this.prompts.delete(name);
    if (removed) {
      this.pages.invalidate();
      this.onChange();
    }
    return removed;
  }

  /** The scopes a prompt needs, if it is known. */
  scopesOf(name: unknown): Scopes {
    return typeof name === "string" ? this.prompts.get(name)?.scopes : undefined;
  }

  /** Every scope some prompt needs. */
  *declaredScopes(): Iterable<string> {
    for (const prompt of this.prompts.values()) if (prompt.scopes) yield* prompt.scopes;
  }

  list(cursor: unknown, revision: Revision, visible?: Visible): ListPromptsResult {
    const { items, nextCursor } = this.pages.page(cursor, visible && ((prompt) => visible(prompt.scopes)));
    const prompts = items.map((prompt) => adaptDescription(prompt.description, revision));
    return nextCursor === undefined ? { prompts } : { prompts, nextCursor };
  }

  async get(params: Record<string, unknown>, ctx: RequestContext): Promise<GetPromptResult> {
    const prompt = this.find(params.name);
    const args = await prompt.check((params.arguments as Record<string, unknown> | undefined) ?? {});
    const result = toPromptResult(await prompt.handler(args, ctx), prompt.description.description);
    const revision = ctx.session.revision;
    if (!revision) return result;
    const messages = result.messages.map((message) => {
      const [content] = adaptContent([message.content], revision);
      return content === message.content ? message : { ...message, content: content! };
    });
    return { ...result, messages };
  }

  completeArgument(name: unknown, argumentName: string, value: string, context: Record<string, string>) {
    return complete(this.find(name).completers[argumentName], value, context);
  }

  private find(name: unknown): RegisteredPrompt {
    const prompt = typeof name === "string" ? this.prompts.get(name) : undefined;
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${String(name)}`, { name });
    return prompt;
  }
}
