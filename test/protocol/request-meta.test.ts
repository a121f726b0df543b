/**
 * readRequestMeta remembers what the last frozen `_meta` (the one MessageParser shares between
 * messages that repeat it) read as; any other `_meta` is read afresh.
 */
import { describe, expect, it } from "vitest";
import { deepFreeze } from "../../src/jsonrpc/fixed-json.js";
import { META, readRequestMeta } from "../../src/protocol/eras/request-meta.js";

const metaOf = (version: string, name = "c") => ({
  [META.protocolVersion]: version,
  [META.clientCapabilities]: {},
  [META.clientInfo]: { name, version: "1" },
});

describe("readRequestMeta", () => {
  it("reads a repeated frozen _meta once, and a different one afresh", () => {
    const frozen = deepFreeze(metaOf("2026-07-28"));
    const first = readRequestMeta({ _meta: frozen });
    expect(readRequestMeta({ _meta: frozen })).toBe(first);
    expect(first).toEqual({
      protocolVersion: "2026-07-28",
      clientCapabilities: {},
      clientInfo: { name: "c", version: "1" },
    });
    expect(readRequestMeta({ _meta: deepFreeze(metaOf("2026-07-28", "other")) }).clientInfo?.name).toBe(
      "other",
    );
  });

  it("reads an unfrozen _meta every time, so changes to it count", () => {
    const meta: Record<string, unknown> = metaOf("2026-07-28");
    expect(readRequestMeta({ _meta: meta }).protocolVersion).toBe("2026-07-28");
    meta[META.protocolVersion] = "2099-01-01";
    expect(readRequestMeta({ _meta: meta }).protocolVersion).toBe("2099-01-01");
    meta[META.clientCapabilities] = "none";
    expect(() => readRequestMeta({ _meta: meta })).toThrow(/clientCapabilities/);
  });
});
