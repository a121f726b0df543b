// A skills server scripted on one end of an in-memory pair: it serves a catalog through the
// extension's method handlers and resources/read, and a test may replace any answer (to tamper).

import { McpClient } from "../../src/client/index.js";
import { SKILLS_EXTENSION, type SkillCatalog, skillsMethods } from "../../src/extensions/skills/index.js";
import { McpError } from "../../src/jsonrpc/errors.js";
import type { JSONRPCMessage } from "../../src/jsonrpc/messages.js";
import { createMemoryTransportPair } from "../../src/transports/memory/pair.js";

type Answer = (params: Record<string, unknown>) => unknown;

export interface SkillsPeer {
  client: McpClient;
  /** Every request the client sent, by method and params. */
  requests: { method: string; params: Record<string, unknown> }[];
}

/**
 * Connects our client to a scripted skills server over `catalog`; `answers` override methods;
 * `capability` is its skills entry (`null`: it does not declare the extension).
 */
export async function connectSkillsPeer(
  catalog: SkillCatalog,
  answers: Record<string, Answer> = {},
  capability: unknown = { directoryRead: true },
): Promise<SkillsPeer> {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const requests: SkillsPeer["requests"] = [];
  const files = new Map([...catalog.files()].map((file) => [file.uri, file]));
  const methods: Record<string, Answer> = {
    initialize: (params) => ({
      protocolVersion: params.protocolVersion,
      serverInfo: { name: "skills-peer", version: "1.0.0" },
      capabilities: {
        resources: {},
        ...(capability === null ? {} : { extensions: { [SKILLS_EXTENSION]: capability } }),
      },
    }),
    "resources/read": (params) => {
      const file = files.get(String(params.uri));
      if (!file) throw new McpError(-32602, `Resource not found: ${params.uri}`);
      return {
        contents: [{ uri: file.uri, mimeType: file.mimeType, text: new TextDecoder().decode(file.bytes) }],
      };
    },
    ...skillsMethods(catalog),
    ...answers,
  };
  await serverSide.start({
    onmessage(raw) {
      const message = raw as JSONRPCMessage & {
        id?: number;
        method?: string;
        params?: Record<string, unknown>;
      };
      if (message.method === undefined || message.id === undefined) return;
      const params = message.params ?? {};
      requests.push({ method: message.method, params });
      const answer = methods[message.method];
      try {
        if (!answer) throw new McpError(-32601, `Method not found: ${message.method}`);
        serverSide.send({
          jsonrpc: "2.0",
          id: message.id,
          result: answer(params) as Record<string, unknown>,
        });
      } catch (error) {
        const { code, message: text } = error as McpError;
        serverSide.send({ jsonrpc: "2.0", id: message.id, error: { code, message: text } });
      }
    },
    onerror() {},
    oninputend() {},
    onclose() {},
  });
  const client = await McpClient.connect({ transport: clientSide, protocolVersion: "2025-11-25" });
  return { client, requests };
}
