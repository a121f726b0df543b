/** Where in a config something is wrong, and the error that says so. */

/** A place in a config: the file, the server entry, the keys leading there. */
export interface ConfigLocation {
  /** The file the config was read from; absent for a config given in code. */
  file?: string;
  /** The server entry (its name under `mcpServers`), if the problem is inside one. */
  server?: string;
  /** The keys (and array indexes) from the top of the config to the value: `["mcpServers", "fs", "args", 0]`. */
  path?: readonly (string | number)[];
  /** For invalid JSON: where the text stops making sense, both counted from 1. */
  line?: number;
  column?: number;
}

/** `["mcpServers", "my server", "args", 0]` as `mcpServers["my server"].args[0]`. */
function formatPath(path: readonly (string | number)[]): string {
  return path
    .map((key, i) => {
      if (typeof key === "number") return `[${key}]`;
      if (/^[A-Za-z_$][\w$]*$/.test(key)) return i === 0 ? key : `.${key}`;
      return `[${JSON.stringify(key)}]`;
    })
    .join("");
}

/**
 * A config that cannot be used as written: invalid JSON, an unknown key, a value of the wrong type,
 * a `${VAR}` that is not set. The message says where (`mcp.json:3:7`, `server "fs"`, the key's path)
 * and what would be right: `mcp.json: server "fs": unknown key "arg" — did you mean "args"?
 * (at mcpServers.fs.arg)`. The same facts are in the fields, for programs.
 */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  /** The file the config was read from; absent for a config given in code. */
  readonly file: string | undefined;
  /** The server entry the problem is in, if any. */
  readonly server: string | undefined;
  /** The keys leading to the value at fault; empty for the config as a whole. */
  readonly path: readonly (string | number)[];
  /** For invalid JSON: the line and column (from 1) where the text stops making sense. */
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** For an unknown key or value: the one probably meant. */
  readonly suggestion: string | undefined;
  /**
   * Every problem of the config, this one's included: a config with several mistakes is reported
   * at once, as one `ConfigError` for the config as a whole whose message lists them all.
   */
  readonly problems: readonly ConfigError[];

  constructor(
    problem: string,
    at: ConfigLocation = {},
    suggestion?: string,
    problems?: readonly ConfigError[],
  ) {
    const place = at.file
      ? `${at.file}${at.line === undefined ? "" : `:${at.line}:${at.column}`}: `
      : at.line === undefined
        ? ""
        : `line ${at.line}, column ${at.column}: `;
    const server = at.server === undefined ? "" : `server "${at.server}": `;
    const hint = suggestion === undefined ? "" : ` — did you mean "${suggestion}"?`;
    const path = at.path?.length ? ` (at ${formatPath(at.path)})` : "";
    super(`${place}${server}${problem}${hint}${path}`);
    this.file = at.file;
    this.server = at.server;
    this.path = at.path ?? [];
    this.line = at.line;
    this.column = at.column;
    this.suggestion = suggestion;
    this.problems = problems ?? [this];
  }

  /** One error for `problems` (at least one): the problem itself when it is alone. */
  static of(problems: readonly ConfigError[]): ConfigError {
    const [first, ...rest] = problems;
    if (!first) throw new RangeError("ConfigError.of needs at least one problem");
    if (rest.length === 0) return first;
    const list = problems.map((problem) => `\n  - ${problem.message}`).join("");
    return new ConfigError(`${problems.length} problems:${list}`, { file: first.file }, undefined, problems);
  }
}

/**
 * A key another host writes in the same file (Cline's `alwaysAllow`, VS Code's `inputs`): the
 * config is used, and the warning says what mcpkit does with the key.
 */
export interface ConfigWarning {
  message: string;
  file?: string;
  server?: string;
  path: readonly (string | number)[];
}

/** Where warnings go when no `onWarning` is given: Node's process warnings (stderr). */
export function emitConfigWarning(warning: ConfigWarning): void {
  process.emitWarning(warning.message, { type: "ConfigWarning" });
}
