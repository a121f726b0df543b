/** OAuth on the command line: tokens kept in the user's config folder, sign-in in the browser. */
import { openBrowser } from "../../client/auth/browser.js";
import { OAuthError } from "../../client/auth/errors.js";
import { FileTokenStore } from "../../client/auth/file-store.js";
import type { AuthorizationUrlHandler, OAuthOptions } from "../../client/auth/options.js";
import { note } from "./status.js";

/** The OAuth options of the command line. */
export interface AuthCliOptions {
  /** `--client-id`: a client registered with the server's authorization server beforehand. */
  clientId?: string;
  /** `--issuer`: the authorization server the client id belongs to; no other one is used. */
  issuer?: string;
  /** `--scopes`: the scopes to ask for when the server names none (space- or comma-separated). */
  scopes?: string;
  /** `--no-browser` sets it to `false`: print the URL instead of opening it. */
  browser?: boolean;
}

/** The store every command shares: one file per server under the user's config folder. */
export function cliTokenStore(): FileTokenStore {
  return new FileTokenStore();
}

/**
 * How a command signs the user in when a server asks: opens the browser (or, with `--no-browser`,
 * prints the URL) and waits for the redirect on 127.0.0.1. Where no one can sign in (not at a
 * terminal), it says to run `mcpkit login` instead of waiting.
 */
function signIn(options: AuthCliOptions, server: string, interactive: boolean): AuthorizationUrlHandler {
  return async (url) => {
    if (options.browser === false) {
      note(`mcpkit: to sign in to ${server}, open this URL on this machine:\n  ${url.href}`);
      return;
    }
    if (!interactive) {
      throw new OAuthError(`${server} asks you to sign in: run mcpkit login ${server}`);
    }
    note(`mcpkit: signing in to ${server} in your browser; if it does not open, visit:\n  ${url.href}`);
    await openBrowser(url).catch((error: unknown) =>
      note(`mcpkit: ${error instanceof Error ? error.message : String(error)}`),
    );
  };
}

/** The `auth` option of a command's connection to `server`. */
export function cliAuth(options: AuthCliOptions, server: string, interactive: boolean): OAuthOptions {
  const scopes = options.scopes?.split(/[\s,]+/).filter(Boolean);
  return {
    store: cliTokenStore(),
    onAuthorizationUrl: signIn(options, server, interactive),
    ...(options.clientId !== undefined && { clientId: options.clientId }),
    ...(options.issuer !== undefined && { issuer: options.issuer }),
    ...(scopes && scopes.length > 0 && { scopes }),
  };
}
