import type { ListKind } from "../sessions/broadcast.js";
import { PromptRegistry } from "./prompts.js";
import { ResourceRegistry } from "./resources.js";
import { ToolRegistry } from "./tools.js";

/** The tools, resources and prompts of one server. */
export class Registries {
  readonly tools: ToolRegistry;
  readonly resources: ResourceRegistry;
  readonly prompts: PromptRegistry;

  constructor(
    options: { pageSize?: number; maxUriLength?: number },
    /** Hears each change of what a list holds. */
    onChange: (kind: ListKind) => void,
  ) {
    const pageSize = options.pageSize ?? 1000;
    this.tools = new ToolRegistry(pageSize, () => onChange("tools"));
    this.resources = new ResourceRegistry(pageSize, () => onChange("resources"), options.maxUriLength);
    this.prompts = new PromptRegistry(pageSize, () => onChange("prompts"));
  }

  /** Every scope a tool, resource or prompt needs. */
  declaredScopes(): string[] {
    return [
      ...new Set([
        ...this.tools.declaredScopes(),
        ...this.resources.declaredScopes(),
        ...this.prompts.declaredScopes(),
      ]),
    ];
  }
}
