import * as oauth from "oauth4webapi";
import { answeredError, type OAuthError, peerText } from "./errors.js";
import { asOAuthError } from "./identity.js";
import type { Secrets } from "./redact.js";

/** The client a token request authenticated as, and what to check if the server refuses it. */
interface PresentedClient {
  clientId: string;
  /** The token endpoint authentication method it used (`client_secret_basic`, …). */
  method: string;
  /** What to check when its credentials are refused, in the client's own words. */
  check: string;
}

/** What an authorization server answered a token request with, as far as it said. */
interface Answer {
  status: number;
  error: string | undefined;
  description: string | undefined;
}

/**
 * A failed token request as an `OAuthError`. oauth4webapi reports a `401` with a `WWW-Authenticate`
 * challenge (how servers refuse `client_secret_basic`) as the challenge alone: the `error` and
 * `error_description` are read from it, else from the JSON body. A refusal of the client's
 * credentials (`invalid_client`, or a bare `401`) says whose they were and what to check.
 */
export async function tokenError(
  error: unknown,
  what: string,
  secrets: Secrets,
  client: PresentedClient,
): Promise<OAuthError> {
  const answer = await answerOf(error);
  if (!answer) return asOAuthError(error, what, secrets);
  const said = {
    error: answer.error === undefined ? undefined : secrets.redact(answer.error),
    description: answer.description === undefined ? undefined : secrets.redact(answer.description),
  };
  const refused = answer.error === "invalid_client" || (answer.status === 401 && answer.error === undefined);
  if (!refused) return answeredError(what, said);
  const whose = `the authorization server refused the credentials of client id ${peerText(client.clientId)} (${client.method}) at its token endpoint`;
  return answeredError(
    `${what}: ${whose}${answer.error === undefined ? ` (HTTP ${answer.status})` : ""}`,
    said,
    { next: client.check },
  );
}

/** The status, `error` and `error_description` of a refusal oauth4webapi reported, if it was one. */
async function answerOf(error: unknown): Promise<Answer | undefined> {
  if (error instanceof oauth.ResponseBodyError)
    return { status: error.status, error: error.error, description: error.error_description };
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const challenge = error.cause.find((c) => typeof c.parameters.error === "string");
    if (challenge) {
      return {
        status: error.status,
        error: challenge.parameters.error,
        description: challenge.parameters.error_description,
      };
    }
    return { status: error.status, ...(await bodyAnswer(error.response)) };
  }
  // A 401 with neither a challenge nor a JSON error: oauth4webapi keeps the response as the cause.
  if (error instanceof oauth.OperationProcessingError && error.cause instanceof Response) {
    if (error.cause.status === 401) return { status: 401, error: undefined, description: undefined };
  }
  return undefined;
}

/** The `error` and `error_description` of a JSON error body, if it has one. */
async function bodyAnswer(response: Response): Promise<Omit<Answer, "status">> {
  try {
    const body: unknown = await response.json();
    if (typeof body === "object" && body !== null) {
      const { error, error_description } = body as Record<string, unknown>;
      return {
        error: typeof error === "string" && error !== "" ? error : undefined,
        description: typeof error_description === "string" ? error_description : undefined,
      };
    }
  } catch {
    // no JSON body: the status says enough
  }
  return { error: undefined, description: undefined };
}

/**
 * What to check when the token endpoint refuses a client's credentials: the pre-registered
 * client's secret or key and method, or, for a client that registered itself, its registration.
 */
export function credentialsCheck(method: string, preRegistered: boolean): string {
  if (!preRegistered)
    return "the registration kept for this client is no longer accepted: forget it (OAuthSession.forget(), or mcpkit logout) and sign in again to register anew";
  switch (method) {
    case "client_secret_basic":
    case "client_secret_post":
      return `check clientSecret, and that the client is registered for ${method} there (else set tokenEndpointAuthMethod)`;
    case "private_key_jwt":
      return "check clientPrivateKey (the key, its kid and alg) against the public key registered there, and that the client is registered for private_key_jwt";
    case "none":
      return "it sent no credentials, as a public client: if it is a confidential client, pass its clientSecret or clientPrivateKey (with issuer)";
    default:
      return "check the client's credentials and tokenEndpointAuthMethod";
  }
}
