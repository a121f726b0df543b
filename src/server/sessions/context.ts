import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { RequestId } from "../../jsonrpc/messages.js";
import type { IncomingRequest } from "../../protocol/engine/incoming.js";
import type { RequestOptions } from "../../protocol/engine/outgoing.js";
import { requestedSchemaProblems } from "../../protocol/features/elicitation.js";
import type { Revision } from "../../protocol/revisions/revision.js";
import type { AuthInfo } from "../../protocol/transport.js";
import type { Implementation, Meta } from "../../protocol/types/base.js";
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  LoggingLevel,
  Root,
} from "../../protocol/types/client-features.js";
import type { ClientCapabilities } from "../../protocol/types/lifecycle.js";
import { askAsTask, type ClientSend, type ClientTaskRequest, clientRunsAsTask } from "./client-task.js";
import type { InputMethod, InputRound } from "./input-round.js";
import { type ReplyChannel, sessionChannel, statelessChannel } from "./reply-channel.js";
import type { ServerSession } from "./session.js";

/** Options of `ctx.elicit`, `ctx.sample` and `ctx.listRoots`. */
export interface AskOptions extends RequestOptions {
  /**
   * The key of this question in a multi round-trip request (2026-07-28); by default the method and
   * its position among the handler's questions of that method.
   */
  key?: string;
  /**
   * Asks the client to run the request as a task (2025-11-25 client-side tasks), for a sampling or
   * elicitation that may take long: the client answers with a task, which is polled at its
   * `pollInterval` until it ends, and its result is returned as a plain request's would be;
   * aborting cancels the client's task. Only where the client declares it
   * (`capabilities.tasks.requests…`); otherwise, and in stateless requests, the request is asked as
   * usual.
   */
  task?: boolean | ClientTaskRequest;
}

/** The task a handler runs as (the tasks extension): its id, and a way to say how it is doing. */
export interface RunningTask {
  /** The task's id, as the client sees it. */
  readonly id: string;
  /** Sets the task's `statusMessage`, which `tasks/get` and status notifications show. */
  statusMessage(message: string): Promise<void>;
}

/**
 * What a handler gets beside its arguments: the request, its session, and ways to talk back. The
 * same handler serves both eras: in a handshake session `elicit`/`sample`/`listRoots` send requests
 * to the client; in a stateless (2026-07-28) request they become the `inputRequests` of a multi
 * round-trip request, and the handler runs again with the answers.
 */
export class RequestContext {
  /** Set by the server for stateless requests that may ask for input: opens this request's round. */
  round: (() => InputRound) | undefined;
  /** The task this handler runs as, when a tasks extension runs it as one. */
  declare readonly task?: RunningTask;
  /**
   * For a tool whose task is started by its handler (`task: { startedByHandler: true }`), when
   * the caller can take a task: answers the call with the task now, and goes on as the task.
   */
  declare readonly startTask?: () => Promise<RunningTask>;

  constructor(
    /** The request being handled. */
    readonly request: IncomingRequest,
    /** The connection it arrived on. */
    readonly session: ServerSession,
  ) {}

  /** How this request talks back: by its era, known from what the session admitted it with. */
  protected get channel(): ReplyChannel {
    return this.request.requestMeta ? statelessChannel : sessionChannel;
  }

  /** Who the client is: the stateless request's `_meta`, or what the session's handshake said. */
  private get sender(): { clientCapabilities: ClientCapabilities; clientInfo?: Implementation | undefined } {
    return this.request.requestMeta ?? this.session;
  }

  /** The request's id. */
  get requestId(): RequestId {
    return this.request.id;
  }

  /** Aborted when the client cancels the request or the connection closes. */
  get signal(): AbortSignal {
    return this.request.signal;
  }

  /**
   * The request's `_meta`. A stateless request's `_meta` that repeats the previous one's is shared
   * and frozen: copy it to change it.
   */
  get meta(): Readonly<Meta> | undefined {
    return this.request.meta;
  }

  /**
   * Who sent the request, verified from its access token (HTTP with `auth`): subject, client,
   * scopes and claims. `undefined` on a transport without credentials, such as stdio.
   */
  get auth(): AuthInfo | undefined {
    return this.request.auth;
  }

  /** The revision this request speaks. */
  get revision(): Revision | undefined {
    return this.channel.revision(this);
  }

  /** What the client can do: declared in this request (stateless) or at the handshake. */
  get clientCapabilities(): ClientCapabilities {
    return this.sender.clientCapabilities;
  }

  /** Who the client says it is, if it says. */
  get clientInfo(): Implementation | undefined {
    return this.sender.clientInfo;
  }

  /** Reports progress to the client, if it asked for progress; a no-op otherwise. */
  progress(progress: number, total?: number, message?: string): void {
    this.request.progress(progress, total, this.revision?.progressMessage === false ? undefined : message);
  }

  /**
   * Ends this request's SSE stream now (HTTP with resumability only); the client comes back with
   * `Last-Event-ID` and gets the rest. Lets long calls survive proxies that cut idle streams.
   */
  closeStream(): boolean {
    return this.session.peer.transport.closeRequestStream?.(this.request.id) ?? false;
  }

  /**
   * Sends a log message, if it passes the level the client set: with `logging/setLevel` in a
   * handshake session, or in this request's `_meta` (stateless; no level, no messages).
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    this.channel.log(this, level, data, logger);
  }

  /** Asks the client's LLM for a message (`sampling/createMessage`). */
  async sample(params: CreateMessageRequestParams, options?: AskOptions): Promise<CreateMessageResult> {
    const sampling = this.clientCapabilities.sampling;
    if (!sampling) throw this.missing({ sampling: {} }, "sampling/createMessage");
    if (params.tools && !sampling.tools)
      throw this.missing({ sampling: { tools: {} } }, "sampling with tools");
    return this.ask<CreateMessageResult>("sampling/createMessage", { ...params }, options);
  }

  /**
   * Asks the user for input (`elicitation/create`): a form described by a flat schema, or (2025-11-25)
   * a URL to open. A declined or cancelled elicitation is a result, not an error.
   */
  async elicit(params: ElicitRequestParams, options?: AskOptions): Promise<ElicitResult> {
    const revision = this.revision;
    if (revision && revision.elicitation === undefined) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Elicitation does not exist in protocol ${revision.version}`,
      );
    }
    const elicitation = this.clientCapabilities.elicitation;
    if (!elicitation) throw this.missing({ elicitation: {} }, "elicitation/create");
    if (params.mode === "url") {
      if (!elicitation.url) throw this.missing({ elicitation: { url: {} } }, "URL-mode elicitation");
    } else {
      // An empty `elicitation: {}` means form mode, as before modes existed.
      if (elicitation.url && !elicitation.form && Object.keys(elicitation).length > 0) {
        throw this.missing({ elicitation: { form: {} } }, "form-mode elicitation");
      }
      const problems = requestedSchemaProblems(params.requestedSchema, revision?.version);
      if (problems.length > 0) {
        throw new TypeError(`The elicitation schema is outside what MCP allows: ${problems.join("; ")}`);
      }
    }
    return this.ask<ElicitResult>("elicitation/create", { ...params }, options);
  }

  /** The client's roots (`roots/list`). */
  async listRoots(options?: AskOptions): Promise<Root[]> {
    if (!this.clientCapabilities.roots) throw this.missing({ roots: {} }, "roots/list");
    const result = await this.ask<{ roots: Root[] }>("roots/list", undefined, options);
    return result.roots;
  }

  /** A request to the client (handshake era) or a question of this round (stateless). */
  private ask<T>(
    method: InputMethod,
    params: Record<string, unknown> | undefined,
    options?: AskOptions,
  ): Promise<T> {
    const { task, ...rest } = options ?? {};
    if (task && this.request.requestMeta === undefined && clientRunsAsTask(this.clientCapabilities, method)) {
      const { key: _key, ...requestOptions } = rest;
      const signal = requestOptions.signal
        ? AbortSignal.any([requestOptions.signal, this.signal])
        : this.signal;
      return this.exchange((send) =>
        askAsTask<T>(
          send,
          (taskId) =>
            this.session.peer.request("tasks/cancel", { taskId }, { timeout: requestOptions.timeout }),
          method,
          params ?? {},
          task === true ? {} : task,
          requestOptions,
          signal,
        ),
      );
    }
    return this.channel.ask<T>(this, method, params, rest);
  }

  /**
   * Runs an exchange of requests with the client of this session (a request asked as a task, and
   * its polls), sent for this request.
   */
  protected exchange<T>(run: (send: ClientSend) => Promise<T>): Promise<T> {
    return run((method, params, options) => this.request.request(method, params, options));
  }

  private missing(required: Record<string, object>, what: string): McpError {
    return this.channel.missing(this, required, what);
  }
}
