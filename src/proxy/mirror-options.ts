/** What a mirror is given: the upstreams and how their names are shown, and its options. */
import type { MultiServerClient } from "../client/multi/multi-client.js";
import type { MultiServerTool } from "../client/multi/router.js";
import type { TaskStore } from "../extensions/tasks/index.js";
import type { Prompt } from "../protocol/types/prompts.js";
import type { AccessPolicy } from "./access.js";
import type { AuditSink } from "./audit.js";
import type { ToolPolicy } from "./filter.js";
import type { UpstreamLimits } from "./limits.js";
import type { ToolCallMiddleware } from "./middleware.js";
import type { ToolOverrides } from "./overrides.js";
import type { GatewayPolicy } from "./policy.js";

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
  /** Whether a server (by label) is trusted: its tool annotations are believed. */
  trusted(server: string): boolean;
  /** The `logger` of a log message a server sent, as clients see it. */
  logger(server: string, logger: string | undefined): string | undefined;
}

/** What the mirror reports and records, who may use what, and how tools are shown. */
export interface MirrorOptions extends UpstreamLimits {
  audit?: AuditSink | undefined;
  onWarning?: ((message: string) => void) | undefined;
  access?: AccessPolicy | undefined;
  policy?: GatewayPolicy | undefined;
  /** Middlewares of the caller's own, run after the proxy's (audit, access, policy). */
  middleware?: readonly ToolCallMiddleware[] | undefined;
  overrides?: ToolOverrides | undefined;
  /** Whether a server (by label) is trusted: its annotations are believed. */
  trusted?: ((server: string) => boolean) | undefined;
  /** The front's task store: set, tools run as tasks as their upstreams' do. */
  tasks?: TaskStore | undefined;
}
