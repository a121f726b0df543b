import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { LATEST_LEGACY_VERSION, LEGACY_VERSIONS } from "../revisions/index.js";

/**
 * The server's side of version negotiation: the client's version if the server speaks it,
 * else the server's newest.
 */
export function chooseServerVersion(
  requested: unknown,
  supported: readonly string[] = LEGACY_VERSIONS,
): string {
  if (typeof requested === "string" && supported.includes(requested)) return requested;
  return supported[0] ?? LATEST_LEGACY_VERSION;
}

/** The client's side: accept the server's answer, or fail naming both sides' versions. */
export function acceptServerVersion(
  answered: unknown,
  requested: string,
  supported: readonly string[],
): string {
  if (typeof answered === "string" && supported.includes(answered)) return answered;
  throw new McpError(
    ErrorCode.InvalidRequest,
    `The server answered with protocol version ${JSON.stringify(answered)}, which this client does not speak ` +
      `(the client asked for ${requested} and supports ${supported.join(", ")})`,
    { requested, answered, supported },
  );
}
