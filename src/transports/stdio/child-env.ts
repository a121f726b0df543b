/**
 * The environment a spawned server gets. The parent's holds what the server has no business
 * seeing (cloud credentials, tokens); by default only what a program needs to run passes.
 */

/** The parent's variables a server gets by default, per platform. */
export const DEFAULT_INHERITED_ENV: readonly string[] =
  process.platform === "win32"
    ? [
        "APPDATA",
        "HOMEDRIVE",
        "HOMEPATH",
        "LOCALAPPDATA",
        "PATH",
        "PROCESSOR_ARCHITECTURE",
        "SYSTEMDRIVE",
        "SYSTEMROOT",
        "TEMP",
        "USERNAME",
        "USERPROFILE",
        "PROGRAMFILES",
      ]
    : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/**
 * The safelisted variables of `parent`, without values that start with `()` (shell functions, the
 * stuff of Shellshock), with `env` added; the whole of `parent` with `inheritEnv`.
 */
export function childEnvironment(
  env: Record<string, string | undefined> | undefined,
  inheritEnv: boolean | undefined,
  parent: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  if (inheritEnv) return env ? { ...parent, ...env } : parent;
  const out: NodeJS.ProcessEnv = {};
  for (const name of DEFAULT_INHERITED_ENV) {
    const value = parent[name];
    if (value !== undefined && !value.startsWith("()")) out[name] = value;
  }
  return env ? Object.assign(out, env) : out;
}
