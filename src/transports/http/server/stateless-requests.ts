import { McpError } from "../../../jsonrpc/errors.js";
import type { JSONRPCMessage } from "../../../jsonrpc/messages.js";
import type { AuthInfo, CheckedMessage } from "../../../protocol/transport.js";
import type { ConnectSession, HttpExchange } from "../shared/exchange.js";
import { modernAdmission, modernErrorStatus, type ParamHeaders } from "./modern-headers.js";
import { replyError } from "./replies.js";
import { StatelessTransport } from "./stateless-transport.js";
import type { StreamOptions } from "./stream.js";

/**
 * The stateless (2026-07-28) POSTs of an endpoint: each request's `_meta` and headers are checked,
 * then it is served, with no session, on the endpoint's one stateless transport, connected to the
 * server on first use; errors carry their HTTP status (400, 404).
 */
export class StatelessRequests {
  private transport: StatelessTransport | undefined;
  private opening: Promise<StatelessTransport> | undefined;

  constructor(
    private readonly connect: ConnectSession,
    private readonly supportedVersions: readonly string[],
    private readonly paramHeaders: ParamHeaders | undefined,
    private readonly streamOptions: () => StreamOptions,
  ) {}

  /** Serves one POST of a stateless request, its `MCP-Protocol-Version` header being `version`. */
  async post(
    exchange: HttpExchange,
    message: JSONRPCMessage,
    version: string | undefined,
    auth: AuthInfo | undefined,
  ): Promise<void> {
    let checked: CheckedMessage | undefined = auth && { auth };
    if ("method" in message && "id" in message) {
      const admitted = modernAdmission(exchange, message, version, this.supportedVersions, this.paramHeaders);
      if (admitted instanceof McpError)
        return replyError(exchange, modernErrorStatus(admitted.code), admitted, message.id);
      checked = auth ? { meta: admitted, auth } : { meta: admitted };
    }
    const transport = this.transport ?? (await this.open());
    transport.receive(exchange, message, checked);
  }

  /** Ends the stateless transport, if one was opened. */
  async close(): Promise<void> {
    const transport = this.transport;
    this.transport = undefined;
    this.opening = undefined;
    await transport?.close();
  }

  private open(): Promise<StatelessTransport> {
    this.opening ??= (async () => {
      const transport = new StatelessTransport(this.streamOptions());
      await this.connect(transport, {});
      this.transport = transport;
      return transport;
    })();
    return this.opening;
  }
}
