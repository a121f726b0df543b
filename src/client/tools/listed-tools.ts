import type { JsonSchema, Tool } from "../../protocol/types/tools.js";

/**
 * What a client keeps of the tools as last listed, in one pass over the listing: each input schema
 * (stateless requests mirror arguments by it), the tools a lost call of which may be sent again, and
 * each tool's `execution.taskSupport`.
 */
export class ListedTools {
  /** `execution.taskSupport` by tool: in sessions, which calls run as tasks. */
  readonly taskSupport = new Map<string, string>();

  constructor(
    readonly schemas: Map<string, JsonSchema>,
    /** Tools the server lists as read-only or idempotent. */
    readonly safeToRepeat: Set<string>,
  ) {}

  /** Takes in a listing (its usable tools). */
  take(tools: readonly Tool[]): void {
    for (const tool of tools) {
      this.schemas.set(tool.name, tool.inputSchema);
      const { readOnlyHint, idempotentHint } = tool.annotations ?? {};
      if (readOnlyHint === true || idempotentHint === true) this.safeToRepeat.add(tool.name);
      else this.safeToRepeat.delete(tool.name);
      this.taskSupport.set(tool.name, tool.execution?.taskSupport ?? "forbidden");
    }
  }
}
