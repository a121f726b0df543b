import { dirname, resolve } from "node:path";
import type { ServerConfig } from "../../client/multi/config.js";
import { checkProxyConfig, type ProxyConfig, readProxyConfig } from "../../proxy/config.js";
import { parseToolRule } from "../../proxy/filter.js";
import type { ProxyOptions } from "../../proxy/proxy.js";
import type { HttpTransportKind } from "../../transports/kinds.js";
import type { AuthCliOptions } from "../shared/auth-options.js";
import { describeError, UsageError } from "../shared/errors.js";
import { envOf, headersOf } from "../shared/options.js";
import type { RedisCliOptions } from "../shared/redis-option.js";

/** The options of `mcpkit proxy`. */
export interface ProxyCliOptions extends AuthCliOptions, RedisCliOptions {
  http?: boolean;
  stdio?: boolean;
  port?: string;
  host?: string;
  config?: string;
  allow?: string[];
  deny?: string[];
  audit?: string;
  auditKeyFile?: string;
  header?: string[];
  transport?: HttpTransportKind;
  env?: string[];
  timeout?: number;
  verbose?: boolean;
  otel?: string | boolean;
}

const isUrl = (text: string) => /^https?:\/\//i.test(text);

/** Checks `--allow`/`--deny` rules, so a typo is a usage error before anything starts. */
export function checkRules(option: string, rules: string[] = []): void {
  for (const rule of rules) {
    try {
      parseToolRule(rule);
    } catch (error) {
      throw new UsageError(`${option}: ${describeError(error)}`);
    }
  }
}

/** Where the proxy forwards to, from the command line: a config file, a URL or a command. */
export async function upstreamOptions(
  operands: string[],
  afterDashes: string[] | undefined,
  options: ProxyCliOptions,
): Promise<{ proxy: ProxyOptions; label: string; disabled?: string[]; audit?: string }> {
  const rules = { allow: options.allow ?? [], deny: options.deny ?? [] };
  const given = [
    options.config !== undefined,
    afterDashes !== undefined,
    operands.length > 0 && !options.config,
  ];
  if (given.filter(Boolean).length !== 1) {
    throw new UsageError(
      "give the upstream once: --config mcp.json (all its servers as one), a URL, or a command after --",
    );
  }
  const urlOnly = options.header?.length || options.transport;
  if (urlOnly && (options.config !== undefined || afterDashes !== undefined)) {
    throw new UsageError(
      "--header and --transport are for a URL upstream (put them in the config file's entry)",
    );
  }
  if (options.env?.length && afterDashes === undefined) {
    throw new UsageError("--env is for a command upstream (put it in the config file's entry)");
  }
  if (options.config !== undefined) {
    // Checked here so a bad file is a usage error; the proxy reads it again and expands each
    // server's variables as it connects it, leaving out (and naming) a server whose variable is unset.
    let config: ProxyConfig;
    try {
      config = await readProxyConfig(options.config);
      checkProxyConfig(
        config,
        { servers: operands.length > 0 ? operands : undefined, ...rules },
        options.config,
      );
    } catch (error) {
      throw new UsageError(`--config: ${describeError(error)}`);
    }
    const servers = operands.length > 0 ? { servers: operands } : {};
    const disabled =
      operands.length > 0
        ? []
        : Object.entries(config.mcpServers).flatMap(([name, entry]) => (entry.disabled ? [name] : []));
    // The config's audit log is relative to the file.
    const audit = config.audit === undefined ? undefined : resolve(dirname(options.config), config.audit);
    return {
      proxy: { config: options.config, ...servers, ...rules },
      label: options.config,
      disabled,
      ...(audit === undefined ? {} : { audit }),
    };
  }
  let upstream: ServerConfig;
  let label: string;
  if (afterDashes !== undefined) {
    const [command, ...args] = afterDashes;
    if (command === undefined)
      throw new UsageError("nothing after --: give the command that starts the server");
    upstream = { command, args };
    const env = envOf(options.env);
    if (env) upstream.env = env;
    label = afterDashes.join(" ");
  } else {
    if (operands.length > 1) throw new UsageError(`one URL only, not ${JSON.stringify(operands)}`);
    const url = operands[0]!;
    if (!isUrl(url)) {
      throw new UsageError(
        `"${url}" is not a URL; give an http(s):// URL, --config mcp.json, or a command after --`,
      );
    }
    upstream = { url };
    const headers = headersOf(options.header);
    if (headers) upstream.headers = headers;
    if (options.transport) upstream.transport = options.transport;
    label = url;
  }
  for (const rule of [...rules.allow, ...rules.deny]) {
    if (parseToolRule(rule).server !== undefined) {
      throw new UsageError(`--allow/--deny: with one upstream, name tools without a server, not "${rule}"`);
    }
  }
  return { proxy: { upstream, ...rules }, label };
}
