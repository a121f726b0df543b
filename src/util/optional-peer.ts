/**
 * Optional peer dependencies (`@redis/client`, `@opentelemetry/api`, `@langchain/core`, `ai`) are
 * loaded through `importPeer`, so a program that uses a part of mcpkit without its peer installed is
 * told which package to install, instead of Node's "Cannot find package … imported from
 * …/_chunks/chunk-….js".
 */

/** A part of mcpkit was used without the optional peer dependency it needs. */
export class MissingPeerError extends Error {
  override readonly name = "MissingPeerError";
  /** The npm packages to install. */
  readonly packages: readonly string[];

  constructor(packages: readonly string[], feature: string, options?: ErrorOptions) {
    super(`${feature} needs ${packages.join(" and ")}: npm install ${packages.join(" ")}`, options);
    this.packages = packages;
  }
}

/** Whether `error` is Node's failure to find the package `name` (not a module missing inside it). */
export function isMissingPackage(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    typeof message === "string" &&
    message.includes(`'${name}'`)
  );
}

/**
 * Loads the optional peer `name` with `load` (a literal `() => import("…")`, so bundlers keep it
 * external); when it is not installed, rejects with a `MissingPeerError` naming `feature` and the
 * `npm install` line. Any other failure of the import is passed on as it is.
 */
export async function importPeer<T>(name: string, feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissingPackage(error, name)) throw new MissingPeerError([name], feature, { cause: error });
    throw error;
  }
}
