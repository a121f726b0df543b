/** The `mcpServers` format as tables of allowed keys, and the check of a config against them. */
import { checkField, describeType, didYouMean, type FieldTable, isObject } from "./config-check.js";
import { ConfigError } from "./config-error.js";

/** The keys a server entry may have, by the kind of server. */
export interface EntrySchema {
  /** Keys of every entry. */
  common: FieldTable;
  /** Keys of an entry with a `command` (a stdio server). */
  stdio: FieldTable;
  /** Keys of an entry with a `url` (an HTTP server). */
  http: FieldTable;
  /** Keys another reader of the same file uses: what to say about them instead of "unknown key". */
  elsewhere?: Readonly<Record<string, string>>;
}

const HTTP_TRANSPORTS = ["streamable-http", "http", "sse"] as const;

/** The OAuth settings an HTTP entry may hold (see `ServerAuthConfig`). */
const AUTH_FIELDS: FieldTable = {
  clientId: { type: "string", nonEmpty: true },
  clientSecret: { type: "string", nonEmpty: true },
  clientMetadataUrl: { type: "string", nonEmpty: true },
  clientName: { type: "string", nonEmpty: true },
  scopes: { type: "strings", nonEmpty: true },
  redirectUri: { type: "string", nonEmpty: true },
};

/** A server entry as `MultiServerClient` reads it. */
export const SERVER_ENTRY: EntrySchema = {
  common: {
    timeout: { type: "number", positive: true, expected: "a number of milliseconds greater than 0" },
    disabled: { type: "boolean" },
  },
  stdio: {
    command: { type: "string", nonEmpty: true },
    args: { type: "strings" },
    env: { type: "string map" },
    inheritEnv: { type: "boolean" },
    cwd: { type: "string", nonEmpty: true },
    // Claude Code and Cursor write the kind of server as "type".
    type: { type: "choice", values: ["stdio"] },
  },
  http: {
    url: { type: "string", nonEmpty: true },
    headers: { type: "string map" },
    auth: {
      type: "object",
      fields: AUTH_FIELDS,
      expected: 'an object of OAuth settings, such as { "clientId": "…" }',
    },
    transport: { type: "choice", values: HTTP_TRANSPORTS },
    type: { type: "choice", values: HTTP_TRANSPORTS },
  },
  elsewhere: {
    allowTools:
      "is read by the proxy (mcpkit proxy, createProxyServer), not here: pick tools with tools({ include })",
    denyTools:
      "is read by the proxy (mcpkit proxy, createProxyServer), not here: leave tools out with tools({ exclude })",
  },
};

/** Other spellings of keys, seen in other tools' configs and docs. */
const ALIASES: Readonly<Record<string, string>> = {
  cmd: "command",
  arguments: "args",
  argv: "args",
  environment: "env",
  workingDirectory: "cwd",
  serverUrl: "url",
  endpoint: "url",
  servers: "mcpServers",
};

/** Checks one server entry against `schema`; throws a `ConfigError` for the first thing wrong. */
export function checkServerEntry(name: string, entry: unknown, schema: EntrySchema, file?: string): void {
  const at = { file, server: name, path: ["mcpServers", name] };
  if (!isObject(entry)) {
    throw new ConfigError(`must be an object with a "command" or a "url", not ${describeType(entry)}`, at);
  }
  // A key set to `undefined` (in a config built in code) is a key not given.
  const keys = Object.keys(entry).filter((key) => entry[key] !== undefined);
  const hasCommand = keys.includes("command");
  const hasUrl = keys.includes("url");
  if (hasCommand && hasUrl) {
    throw new ConfigError(
      'has both a "command" (a stdio server) and a "url" (an HTTP server): give one of them',
      at,
    );
  }
  const kind = hasCommand ? schema.stdio : hasUrl ? schema.http : { ...schema.stdio, ...schema.http };
  const allowed: FieldTable = { ...schema.common, ...kind };
  for (const key of keys) {
    if (Object.hasOwn(allowed, key)) continue;
    const keyAt = { ...at, path: [...at.path, key] };
    const elsewhere =
      schema.elsewhere && Object.hasOwn(schema.elsewhere, key) ? schema.elsewhere[key] : undefined;
    if (elsewhere) throw new ConfigError(`"${key}" ${elsewhere}`, keyAt);
    if (hasCommand && Object.hasOwn(schema.http, key)) {
      throw new ConfigError(
        `"${key}" is for an HTTP server (one with a "url"), and this one has a "command"`,
        keyAt,
      );
    }
    if (hasUrl && Object.hasOwn(schema.stdio, key)) {
      throw new ConfigError(
        `"${key}" is for a stdio server (one with a "command"), and this one has a "url"`,
        keyAt,
      );
    }
    throw new ConfigError(`unknown key "${key}"`, keyAt, didYouMean(key, Object.keys(allowed), ALIASES));
  }
  if (!hasCommand && !hasUrl) {
    throw new ConfigError('needs a "command" (to start a stdio server) or a "url" (of an HTTP server)', at);
  }
  for (const key of keys) checkField(key, entry[key], allowed[key]!, at);
}

/**
 * Checks a whole config: an object with an `mcpServers` object of entries, each checked against
 * `schema`. Other top-level keys are left alone (a shared file, such as Claude Desktop's, holds other
 * settings too), unless `mcpServers` is missing and one of them looks like it.
 */
export function checkConfig(value: unknown, schema: EntrySchema, file?: string): void {
  if (!isObject(value)) {
    throw new ConfigError(`the config must be an object with "mcpServers", not ${describeType(value)}`, {
      file,
    });
  }
  const servers = value.mcpServers;
  if (servers === undefined) {
    for (const key of Object.keys(value)) {
      const meant = didYouMean(key, ["mcpServers"], ALIASES);
      if (meant) throw new ConfigError(`unknown key "${key}"`, { file, path: [key] }, meant);
    }
    throw new ConfigError('the config needs an "mcpServers" object (the servers by name)', { file });
  }
  if (!isObject(servers)) {
    throw new ConfigError(`"mcpServers" must be an object of servers by name, not ${describeType(servers)}`, {
      file,
      path: ["mcpServers"],
    });
  }
  for (const [name, entry] of Object.entries(servers)) checkServerEntry(name, entry, schema, file);
}
