import { ErrorCode, McpError } from "../../../jsonrpc/errors.js";
import type { JSONRPCMessage } from "../../../jsonrpc/messages.js";
import { readRequestMeta, unsupportedVersion } from "../../../protocol/eras/request-meta.js";
import { revisionOf } from "../../../protocol/revisions/index.js";
import type { RequestMeta } from "../../../protocol/types/lifecycle.js";
import { inertText } from "../../../util/inert-text.js";
import type { HttpExchange } from "../shared/exchange.js";
import {
  decodeHeaderValue,
  headerString,
  MCP_NAME_SOURCE,
  type ParamHeader,
  valueAt,
} from "../shared/param-headers.js";

/** For a tool: its `Mcp-Param-*` headers and the argument each mirrors. */
export type ParamHeaders = (tool: string) => ParamHeader[] | undefined;

function mismatch(message: string): McpError {
  return new McpError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`);
}

/** A value from the request, as an error shows it: capped and inert, since a body may hold megabytes. */
const shown = (value: unknown) => inertText(String(value), { max: 128 });

/** Checks `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` against the body; the error is -32020. */
function modernHeaderProblem(
  exchange: HttpExchange,
  message: JSONRPCMessage,
  paramHeaders: ParamHeaders | undefined,
): McpError | undefined {
  if (!("method" in message)) return undefined;
  const method = exchange.header("mcp-method");
  if (method === undefined) return mismatch("the Mcp-Method header is required");
  if (method !== message.method) {
    return mismatch(
      `Mcp-Method header value '${shown(method)}' does not match body value '${shown(message.method)}'`,
    );
  }
  const source = MCP_NAME_SOURCE[message.method];
  if (!source) return undefined;
  const expected = message.params?.[source];
  const raw = exchange.header("mcp-name");
  if (raw === undefined) return mismatch("the Mcp-Name header is required for " + message.method);
  const name = decodeHeaderValue(raw.trim());
  if (name === undefined) return mismatch("the Mcp-Name header is not valid base64");
  if (name !== expected)
    return mismatch(`Mcp-Name header value '${shown(name)}' does not match body value '${shown(expected)}'`);
  if (message.method !== "tools/call" || !paramHeaders) return undefined;
  const mirrored = paramHeaders(name);
  if (!mirrored) return undefined;
  const args = message.params?.arguments ?? {};
  for (const { header, path } of mirrored) {
    const argument = valueAt(args, path);
    const value = headerString(argument);
    const given = exchange.header(header);
    if (value === undefined) {
      if (given !== undefined) return mismatch(`${header} is set but argument '${path.join(".")}' is absent`);
      continue;
    }
    if (given === undefined)
      return mismatch(`${header} is required: it mirrors argument '${path.join(".")}'`);
    const decoded = decodeHeaderValue(given.trim());
    if (decoded === undefined) return mismatch(`${header} is not valid base64`);
    if (!sameValue(decoded, value, argument)) {
      return mismatch(
        `${header} header value '${shown(decoded)}' does not match argument '${path.join(".")}' value '${shown(value)}'`,
      );
    }
  }
  return undefined;
}

/** The HTTP status of a stateless request's JSON-RPC error (2026-07-28). */
export function modernErrorStatus(code: number): number {
  if (code === ErrorCode.MethodNotFound) return 404;
  if (
    code === ErrorCode.InvalidParams ||
    code === ErrorCode.InvalidRequest ||
    code === ErrorCode.ParseError ||
    code === ErrorCode.HeaderMismatch ||
    code === ErrorCode.MissingRequiredClientCapability ||
    code === ErrorCode.UnsupportedProtocolVersion
  ) {
    return 400;
  }
  return 200;
}

/** A mirrored value against its argument: numbers compare as numbers (`42.0` is `42`). */
function sameValue(decoded: string, value: string, argument: unknown): boolean {
  if (typeof argument !== "number") return decoded === value;
  const trimmed = decoded.trim();
  return trimmed !== "" && Number(trimmed) === argument;
}

/** Why a stateless request is refused before it is served, or its sender's `_meta`. */
export function modernAdmission(
  exchange: HttpExchange,
  message: JSONRPCMessage,
  version: string | undefined,
  supportedVersions: readonly string[],
  paramHeaders: ParamHeaders | undefined,
): McpError | RequestMeta {
  let meta: RequestMeta;
  try {
    meta = readRequestMeta((message as { params?: Record<string, unknown> }).params);
  } catch (error) {
    return error as McpError;
  }
  if (version !== meta.protocolVersion) {
    return new McpError(
      ErrorCode.HeaderMismatch,
      `Header mismatch: MCP-Protocol-Version header value '${version ?? ""}' does not match body value '${meta.protocolVersion}'`,
    );
  }
  const headers = revisionOf(version)?.headers;
  if (!supportedVersions.includes(version) || !headers?.versionPerRequest) {
    return unsupportedVersion(version, supportedVersions);
  }
  return (headers.mirrored ? modernHeaderProblem(exchange, message, paramHeaders) : undefined) ?? meta;
}
