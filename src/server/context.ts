import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { RequestId } from "../jsonrpc/messages.js";
import { requestedSchemaProblems } from "../protocol/elicitation.js";
import type { IncomingRequest } from "../protocol/incoming.js";
import type { RequestOptions } from "../protocol/outgoing.js";
import type { Meta } from "../protocol/types/base.js";
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  LoggingLevel,
  Root,
} from "../protocol/types/client-features.js";
import type { ServerSession } from "./session.js";

/** What a handler gets beside its arguments: the request, its session, and ways to talk back. */
export class RequestContext {
  constructor(
    /** The request being handled. */
    readonly request: IncomingRequest,
    /** The connection it arrived on. */
    readonly session: ServerSession,
  ) {}

  /** The request's id. */
  get requestId(): RequestId {
    return this.request.id;
  }

  /** Aborted when the client cancels the request or the connection closes. */
  get signal(): AbortSignal {
    return this.request.signal;
  }

  /** The request's `_meta`. */
  get meta(): Meta | undefined {
    return this.request.meta;
  }

  /** Reports progress to the client, if it asked for progress; a no-op otherwise. */
  progress(progress: number, total?: number, message?: string): void {
    // A progress message exists from 2025-03-26 on.
    this.request.progress(
      progress,
      total,
      this.session.revision?.toolAnnotations === false ? undefined : message,
    );
  }

  /**
   * Ends this request's SSE stream now (HTTP with resumability only); the client comes back with
   * `Last-Event-ID` and gets the rest. Lets long calls survive proxies that cut idle streams.
   */
  closeStream(): boolean {
    const transport = this.session.peer.transport as { closeRequestStream?: (id: RequestId) => boolean };
    return transport.closeRequestStream?.(this.request.id) ?? false;
  }

  /** Sends a log message, if it passes the level the client set. */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    this.session.log(level, data, logger, this.request.id);
  }

  /** Asks the client's LLM for a message (`sampling/createMessage`). */
  async sample(params: CreateMessageRequestParams, options?: RequestOptions): Promise<CreateMessageResult> {
    const sampling = this.session.clientCapabilities.sampling;
    if (!sampling) throw this.missing("sampling", "sampling/createMessage");
    if (params.tools && !sampling.tools) throw this.missing("sampling.tools", "sampling with tools");
    return this.request.request<CreateMessageResult>("sampling/createMessage", { ...params }, options);
  }

  /**
   * Asks the user for input (`elicitation/create`): a form described by a flat schema, or (2025-11-25)
   * a URL to open. A declined or cancelled elicitation is a result, not an error.
   */
  async elicit(params: ElicitRequestParams, options?: RequestOptions): Promise<ElicitResult> {
    const revision = this.session.revision;
    if (revision && !revision.serverRequests.has("elicitation/create")) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Elicitation does not exist in protocol ${revision.version}`,
      );
    }
    const elicitation = this.session.clientCapabilities.elicitation;
    if (!elicitation) throw this.missing("elicitation", "elicitation/create");
    if (params.mode === "url") {
      if (!elicitation.url) throw this.missing("elicitation.url", "URL-mode elicitation");
    } else {
      // An empty `elicitation: {}` means form mode, as before modes existed.
      if (elicitation.url && !elicitation.form && Object.keys(elicitation).length > 0) {
        throw this.missing("elicitation.form", "form-mode elicitation");
      }
      const problems = requestedSchemaProblems(params.requestedSchema, revision?.version);
      if (problems.length > 0) {
        throw new TypeError(`The elicitation schema is outside what MCP allows: ${problems.join("; ")}`);
      }
    }
    return this.request.request<ElicitResult>("elicitation/create", { ...params }, options);
  }

  /** The client's roots (`roots/list`). */
  async listRoots(options?: RequestOptions): Promise<Root[]> {
    if (!this.session.clientCapabilities.roots) throw this.missing("roots", "roots/list");
    const result = await this.request.request<{ roots: Root[] }>("roots/list", undefined, options);
    return result.roots;
  }

  private missing(capability: string, what: string): McpError {
    const client = this.session.clientInfo?.name ?? "the client";
    return new McpError(
      ErrorCode.InvalidRequest,
      `Cannot use ${what}: ${client} did not declare the ${capability} capability`,
    );
  }
}
