import type { Revision } from "../../protocol/revisions/index.js";
import type { ServerCapabilities } from "../../protocol/types/lifecycle.js";
import type { Registries } from "../registries/registries.js";
import type { ServerExtensions } from "./extensions.js";

/** The capabilities a server declares before anything of the kind is registered. */
export interface AskedCapabilities {
  tools?: boolean;
  resources?: boolean;
  prompts?: boolean;
  completions?: boolean;
}

/**
 * What a server declares: what is registered, what was asked for, and its extensions. Asked for on
 * every stateless request, so computed once per change of what is registered.
 */
export class DeclaredCapabilities {
  private declared: ServerCapabilities | undefined;

  constructor(
    private readonly asked: AskedCapabilities,
    private readonly registries: Registries,
    private readonly extensions: ServerExtensions,
  ) {}

  /** The capabilities as of now, in the 2026-07-28 form (extensions under `extensions`). */
  current(): ServerCapabilities {
    this.declared ??= this.compute();
    return this.declared;
  }

  /** What a handshake session on `revision` is told: extensions in that revision's core as it has them. */
  forHandshake(revision: Revision): ServerCapabilities {
    return this.extensions.forHandshake(this.current(), revision);
  }

  /** Forgets what was computed: something was registered or removed. */
  changed(): void {
    this.declared = undefined;
  }

  private compute(): ServerCapabilities {
    const { asked } = this;
    const { tools, resources, prompts } = this.registries;
    const capabilities: ServerCapabilities = { logging: {} };
    if (asked.completions || resources.completes || prompts.completes) capabilities.completions = {};
    if (asked.prompts || prompts.size > 0) capabilities.prompts = { listChanged: true };
    if (asked.resources || resources.size > 0) {
      capabilities.resources = { subscribe: true, listChanged: true };
    }
    if (asked.tools || tools.size > 0) capabilities.tools = { listChanged: true };
    this.extensions.declare(capabilities);
    return capabilities;
  }
}
