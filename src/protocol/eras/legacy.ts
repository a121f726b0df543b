import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { LEGACY_VERSIONS } from "../revisions/index.js";
import type { ProtocolEra } from "./era.js";

/** What a session accepts before `initialize` was answered. */
const BEFORE_INIT = new Set(["initialize", "ping"]);

/**
 * The handshake era (2024-11-05 … 2025-11-25): the session negotiated its revision in
 * `initialize` and answers nothing else before; results and errors go out as handlers give them.
 */
export const legacy: ProtocolEra = {
  name: "legacy",
  versions: LEGACY_VERSIONS,
  admit(method, version) {
    if (version !== undefined || BEFORE_INIT.has(method)) return undefined;
    return new McpError(ErrorCode.InvalidRequest, `Server not initialized: send initialize before ${method}`);
  },
  readMeta: () => undefined,
  decorate: (_method, result) => result,
  mapError: (error) => error,
  askSubject: () => undefined,
  cacheable: () => false,
};
