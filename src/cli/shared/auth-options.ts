/**
 * `--auth-issuer`, `--auth-audience`, `--scopes` and `--auth-jwt-typ`: what `serve` and `proxy`
 * need to require tokens.
 */
import type { Command } from "commander";
import type { ProtectedResourceOptions } from "../../server/auth/resource-server.js";
import { describeError, UsageError } from "./errors.js";
import { note } from "./status.js";

export interface AuthCliOptions {
  authIssuer?: string;
  authAudience?: string;
  scopes?: string[];
  authJwtTyp?: string[];
}

/** Declares the options on `command`. */
export function authOptions(command: Command): Command {
  return command
    .option("--auth-issuer <url>", "require access tokens from this authorization server (implies --http)")
    .option(
      "--auth-audience <uri>",
      "the server's canonical URI, which tokens must name as audience (default: the URL it listens on)",
    )
    .option(
      "--scopes <scopes>",
      "scopes every token must grant, comma- or space-separated (repeatable)",
      (value: string, previous: string[] | undefined) => [
        ...(previous ?? []),
        ...value.split(/[\s,]+/).filter((scope) => scope !== ""),
      ],
    )
    .option(
      "--auth-jwt-typ <types>",
      "the typ headers JWT access tokens may have, comma-separated, none for a token without one (default at+jwt; add JWT for Microsoft Entra ID or Auth0)",
      (value: string, previous: string[] | undefined) => [
        ...(previous ?? []),
        ...value.split(/[\s,]+/).filter((typ) => typ !== ""),
      ],
    );
}

/**
 * The `auth` option of `serveHttp`, checked now so a bad URL or scope is a usage error (exit 2)
 * before anything starts; `undefined` when no token is required. The checking code (and `jose`)
 * loads only then.
 */
export async function authOf(
  options: AuthCliOptions,
  stdio: boolean,
): Promise<ProtectedResourceOptions | undefined> {
  if (options.authIssuer === undefined) {
    if (
      options.authAudience !== undefined ||
      options.scopes !== undefined ||
      options.authJwtTyp !== undefined
    ) {
      throw new UsageError(
        "--auth-audience, --scopes and --auth-jwt-typ need --auth-issuer, the server that issues the tokens",
      );
    }
    return undefined;
  }
  if (stdio) throw new UsageError("--auth-issuer protects an HTTP server: not with --stdio");
  const auth: ProtectedResourceOptions = { issuer: options.authIssuer };
  if (options.authAudience !== undefined) auth.resource = options.authAudience;
  if (options.scopes !== undefined) auth.scopes = options.scopes;
  if (options.authJwtTyp !== undefined)
    auth.jwt = { typ: options.authJwtTyp.map((typ) => (typ.toLowerCase() === "none" ? null : typ)) };
  const { ResourceServer } = await import("../../server/auth/resource-server.js");
  try {
    new ResourceServer(auth);
  } catch (error) {
    throw new UsageError(`--auth-issuer: ${describeError(error)}`);
  }
  return auth;
}

/** Says, on stderr, who issues the tokens the server takes, and for which resource. */
export function noteProtected(issuer: string, resource: string, scopes: string[] | undefined): void {
  const needs = scopes?.length ? `, scopes ${scopes.join(" ")}` : "";
  note(`mcpkit: access tokens required: issuer ${issuer}, audience ${resource}${needs}`);
}
