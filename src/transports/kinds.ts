/**
 * The HTTP transports a client can be told to use: Streamable HTTP, or the legacy HTTP+SSE
 * transport of 2024-11-05. Options, config files, the CLI and the proxy name them from here.
 */
export const HTTP_TRANSPORTS = ["streamable-http", "sse"] as const;

/** One of `HTTP_TRANSPORTS`. */
export type HttpTransportKind = (typeof HTTP_TRANSPORTS)[number];

/**
 * How config files name them: `http` is Claude Code's and Cursor's spelling of Streamable HTTP.
 * The order is the one error messages list them in.
 */
export const HTTP_TRANSPORT_NAMES = ["streamable-http", "http", "sse"] as const satisfies readonly (
  | HttpTransportKind
  | "http"
)[];

/** One of `HTTP_TRANSPORT_NAMES`. */
export type HttpTransportName = (typeof HTTP_TRANSPORT_NAMES)[number];

/** The transport a config file's name stands for. */
export function httpTransportOf(name: HttpTransportName): HttpTransportKind {
  return name === "http" ? "streamable-http" : name;
}
