/** `login <url>` and `logout <url>`: sign in to a protected server ahead of time, and forget it. */
import { type Command, Option } from "commander";
import { isOAuthError, type OAuthErrorData } from "../../client/auth/errors.js";
import { checkIssuerOption } from "../../client/auth/issuer.js";
import { OAuthSession } from "../../client/auth/session.js";
import { McpClient } from "../../client/client.js";
import { type AuthCliOptions, cliAuth, cliTokenStore } from "../shared/auth.js";
import { examplesHelp } from "../shared/command.js";
import { ConnectionError, describeError, UsageError } from "../shared/errors.js";
import { parseDuration } from "../shared/options.js";
import { peerText } from "../shared/peer-text.js";
import { note } from "../shared/status.js";

function serverUrl(text: string): string {
  if (!/^https?:\/\//i.test(text))
    throw new UsageError(`give the server's URL (http:// or https://), not "${text}"`);
  return new URL(text).href;
}

/** `--issuer`: an issuer identifier, checked now so a wrong one is a usage error (exit 2). */
function issuerUrl(text: string): string {
  try {
    checkIssuerOption({ issuer: text });
  } catch (error) {
    throw new UsageError(`--issuer: ${(error as Error).message.replace(/^auth\.issuer /, "")}`);
  }
  return text;
}

async function login(url: string, options: AuthCliOptions & { timeout: number }): Promise<void> {
  const store = cliTokenStore();
  const session = new OAuthSession(url, { ...cliAuth(options, url, true), store });
  // Signing in again starts afresh: whatever was kept may be what no longer works.
  await session.forget();
  const client = await McpClient.connect({ url, auth: session, handshakeTimeout: options.timeout }).catch(
    (error: unknown) => {
      throw preRegistrationHint(error, url);
    },
  );
  await client.close();
  if (session.authorizations === 0) {
    note(`mcpkit: ${url} did not ask to sign in; nothing was kept`);
    return;
  }
  const tokens = await session.tokens();
  const scopes = tokens?.scope ? ` (scopes: ${peerText(tokens.scope, "message")})` : "";
  process.stdout.write(
    `Signed in to ${url}${scopes}; the tokens are kept in ${store.fileOf(session.server.href)}\n`,
  );
}

/**
 * The authorization server would not let mcpkit register itself: the library's error names the
 * API's options, this says how to sign in from the command line with a client registered beforehand.
 */
function preRegistrationHint(error: unknown, url: string): unknown {
  if (!isOAuthError(error) || (error as { data: OAuthErrorData }).data.needsPreRegisteredClient !== true)
    return error;
  return new ConnectionError(
    `${describeError(error)}\n  To sign in anyway: register a public client for mcpkit at that authorization server, with the redirect URI http://127.0.0.1/callback (any port), then run: mcpkit login --client-id <its client id> --issuer <the authorization server's issuer URL> ${url}`,
    { cause: error },
  );
}

async function logout(url: string): Promise<void> {
  const session = new OAuthSession(url, { store: cliTokenStore() });
  const held = await session.tokens();
  await session.forget();
  process.stdout.write(held ? `Signed out of ${url}\n` : `No sign-in kept for ${url}\n`);
}

/** Adds `login` and `logout`. */
export function registerAuthCommands(program: Command): void {
  program
    .command("login")
    .summary("sign in to a protected server (OAuth) and keep its tokens for later commands")
    .description(
      "Signs in to a protected server: discovers its authorization server, registers mcpkit there if needed, opens your browser to sign in, and keeps the tokens (readable only by you) for every later command with that URL. Commands sign in by themselves when a server asks, if they run at a terminal.",
    )
    .argument("<url>", "the server's MCP endpoint")
    .option(
      "--client-id <id>",
      "a client registered with the authorization server beforehand (a public client, redirect URI http://127.0.0.1/callback): for servers that do not let mcpkit register itself",
    )
    .option(
      "--issuer <url>",
      "the authorization server to sign in with (its issuer URL): a server that names another one is refused",
      issuerUrl,
    )
    .option("--scopes <scopes>", "scopes to ask for when the server names none (comma-separated)")
    .option("--no-browser", "print the sign-in URL instead of opening a browser")
    .addOption(
      new Option("-t, --timeout <duration>", "time limit of the sign-in's connection: 30, 30s, 2m")
        .argParser(parseDuration)
        .default(300_000, "5m"),
    )
    .addHelpText(
      "after",
      examplesHelp([
        ["mcpkit login https://mcp.example.com/mcp", "sign in in the browser"],
        [
          "mcpkit login --no-browser --scopes files:read https://mcp.example.com/mcp",
          "print the URL to open",
        ],
        [
          "mcpkit login --client-id my-app --issuer https://auth.example.com https://mcp.example.com/mcp",
          "a pre-registered client, at its own authorization server only",
        ],
      ]),
    )
    .action((url: string, options: AuthCliOptions & { timeout: number }) => login(serverUrl(url), options));
  program
    .command("logout")
    .summary("forget the tokens and registration kept for a server")
    .argument("<url>", "the server's MCP endpoint")
    .addHelpText("after", examplesHelp([["mcpkit logout https://mcp.example.com/mcp", "sign out"]]))
    .action((url: string) => logout(serverUrl(url)));
}
