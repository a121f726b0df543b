import { HTTP_TRANSPORT_NAMES } from "../../transports/kinds.js";
/** The `mcpServers` format as tables of allowed keys, and the check of a config against them. */
import { checkField, describeType, didYouMean, type FieldTable, isObject } from "./config-check.js";
import { ConfigError, type ConfigWarning, emitConfigWarning } from "./config-error.js";

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

/** What the check of a config found: the problems that make it unusable, and the keys it ignores. */
interface ConfigReport {
  problems: ConfigError[];
  warnings: ConfigWarning[];
}

/**
 * Keys other hosts write into their server entries, which mcpkit accepts and ignores, and why: a
 * config written for Cline, Roo Code or VS Code is read as it is.
 */
const FOREIGN_KEYS: Readonly<Record<string, string>> = {
  alwaysAllow:
    "is Cline's and Roo Code's list of tools run without asking; mcpkit does not ask, so it is ignored",
  autoApprove: "is Cline's list of tools run without asking; mcpkit does not ask, so it is ignored",
  disabledTools:
    "is Roo Code's list of hidden tools, ignored here: leave tools out with tools({ exclude }) or the proxy's denyTools",
  watchPaths: "is Roo Code's list of files to restart the server on, ignored here",
  envFile: 'is VS Code\'s file of environment variables, not read here: put them in "env"',
};

/** The OAuth settings an HTTP entry may hold (see `ServerAuthConfig`). */
const AUTH_FIELDS: FieldTable = {
  clientId: { type: "string", nonEmpty: true },
  clientSecret: { type: "string", nonEmpty: true },
  issuer: { type: "string", nonEmpty: true },
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
    transport: { type: "choice", values: HTTP_TRANSPORT_NAMES },
    type: { type: "choice", values: HTTP_TRANSPORT_NAMES },
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

/**
 * Checks one server entry against `schema`: throws a `ConfigError` listing every problem, and hands
 * a warning for each key another host writes to `onWarning` (default: a process warning).
 */
export function checkServerEntry(
  name: string,
  entry: unknown,
  schema: EntrySchema,
  file?: string,
  onWarning: (warning: ConfigWarning) => void = emitConfigWarning,
): void {
  const report: ConfigReport = { problems: [], warnings: [] };
  reviewServerEntry(name, entry, schema, file, report);
  if (report.problems.length > 0) throw ConfigError.of(report.problems);
  for (const warning of report.warnings) onWarning(warning);
}

/**
 * Checks one server entry against `schema`, adding to `report` every problem (an unknown key, a value
 * of the wrong type, no `command` or `url`) and a warning for each key another host writes.
 */
function reviewServerEntry(
  name: string,
  entry: unknown,
  schema: EntrySchema,
  file: string | undefined,
  report: ConfigReport,
  top = "mcpServers",
): void {
  const at = { file, server: name, path: [top, name] };
  const problem = (message: string, path = at.path, suggestion?: string) =>
    report.problems.push(new ConfigError(message, { ...at, path }, suggestion));
  if (!isObject(entry)) {
    problem(`must be an object with a "command" or a "url", not ${describeType(entry)}`);
    return;
  }
  // A key set to `undefined` (in a config built in code) is a key not given.
  const keys = Object.keys(entry).filter((key) => entry[key] !== undefined);
  const hasCommand = keys.includes("command");
  const hasUrl = keys.includes("url");
  if (hasCommand && hasUrl) {
    problem('has both a "command" (a stdio server) and a "url" (an HTTP server): give one of them');
    return;
  }
  const kind = hasCommand ? schema.stdio : hasUrl ? schema.http : { ...schema.stdio, ...schema.http };
  const allowed: FieldTable = { ...schema.common, ...kind };
  let misspeltKind = false;
  for (const key of keys) {
    const path = [...at.path, key];
    if (Object.hasOwn(allowed, key)) {
      try {
        checkField(key, entry[key], allowed[key]!, at);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        report.problems.push(error);
      }
    } else if (schema.elsewhere && Object.hasOwn(schema.elsewhere, key)) {
      problem(`"${key}" ${schema.elsewhere[key]}`, path);
    } else if (Object.hasOwn(FOREIGN_KEYS, key)) {
      const message = `server "${name}": "${key}" ${FOREIGN_KEYS[key]}`;
      report.warnings.push({ message: file ? `${file}: ${message}` : message, file, server: name, path });
    } else if (hasCommand && Object.hasOwn(schema.http, key)) {
      problem(`"${key}" is for an HTTP server (one with a "url"), and this one has a "command"`, path);
    } else if (hasUrl && Object.hasOwn(schema.stdio, key)) {
      problem(`"${key}" is for a stdio server (one with a "command"), and this one has a "url"`, path);
    } else {
      const meant = didYouMean(key, Object.keys(allowed), ALIASES);
      problem(`unknown key "${key}"`, path, meant);
      // "did you mean command" already says what the entry lacks.
      if (meant === "command" || meant === "url") misspeltKind = true;
    }
  }
  if (!hasCommand && !hasUrl && !misspeltKind) {
    problem('needs a "command" (to start a stdio server) or a "url" (of an HTTP server)');
  }
}

/**
 * Checks a whole config: an object with an `mcpServers` object of entries (or VS Code's `servers`,
 * beside its `inputs`), each checked against `schema`. Other top-level keys are left alone (a shared
 * file, such as Claude Desktop's, holds other settings too), unless no servers are found and one of
 * them looks like `mcpServers`. Returns the servers and the warnings; throws one `ConfigError` for
 * every problem found (`problems` lists them).
 */
export function checkConfig(
  value: unknown,
  schema: EntrySchema,
  file?: string,
): { servers: Record<string, unknown>; warnings: ConfigWarning[] } {
  if (!isObject(value)) {
    throw new ConfigError(`the config must be an object with "mcpServers", not ${describeType(value)}`, {
      file,
    });
  }
  // VS Code's .vscode/mcp.json names the map "servers".
  const top = value.mcpServers === undefined && isObject(value.servers) ? "servers" : "mcpServers";
  const servers = value[top];
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
  const report: ConfigReport = { problems: [], warnings: [] };
  for (const [name, entry] of Object.entries(servers))
    reviewServerEntry(name, entry, schema, file, report, top);
  if (report.problems.length > 0) throw ConfigError.of(report.problems);
  return { servers, warnings: report.warnings };
}
