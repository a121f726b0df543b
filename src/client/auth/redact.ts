import type { OAuthOptions } from "./options.js";

/**
 * Credentials kept out of what a peer's text becomes: an error message, its `data`, a log line. A
 * hostile authorization server may echo what the client sent it (`Authorization: Basic …`, the
 * secret in a form body, an assertion) back in its `error_description`, hoping it reaches a log.
 */

/** What a credential is replaced with. */
const REDACTED = "[redacted]";

/** Shorter values are not looked for: they would blank out ordinary words, and are no secret worth the name. */
const MIN_SECRET = 8;

/** How many values seen at run time (tokens, assertions) are remembered; the oldest go first. */
const MAX_SEEN = 32;

// The credential of an authorization header, written as a header value (a token68 of 8 characters
// or more, not a parameter such as `realm=`).
const AUTHORIZATION = /\b(Basic|Bearer|DPoP)([ \t]+)([A-Za-z0-9\-._~+/]{8,}=*)(?![A-Za-z0-9\-._~+/="])/gi;
// A JWT in compact form: an assertion, a client assertion, an ID token, an ID-JAG.
const JWT = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
// A credential parameter echoed from a form body, or a member of a JSON object.
const NAMES =
  "client_secret|client_assertion|assertion|access_token|refresh_token|id_token|subject_token|code_verifier";
const FORM_PARAMETER = new RegExp(`\\b(${NAMES})=[^&\\s"]+`, "gi");
const JSON_MEMBER = new RegExp(`"(${NAMES})"(\\s*:\\s*)"[^"]*"`, "gi");

/** `text` with whatever looks like a credential replaced by `[redacted]`, known values or not. */
export function redactCredentials(text: string): string {
  return (
    text
      // A word of lower-case letters after "basic" is prose, not a credential.
      .replace(AUTHORIZATION, (match, scheme: string, space: string, credential: string) =>
        /^[a-z]+$/.test(credential) ? match : `${scheme}${space}${REDACTED}`,
      )
      .replace(JWT, REDACTED)
      .replace(FORM_PARAMETER, `$1=${REDACTED}`)
      .replace(JSON_MEMBER, `"$1"$2"${REDACTED}"`)
  );
}

/**
 * The credentials of one OAuth client: those it was configured with, and those it got or sent since
 * (tokens, registered secrets, assertions). `redact` hides each of them, in the forms it is sent in
 * (as is, form-encoded, in a `client_secret_basic` header value), wherever it appears in a text.
 */
export class Secrets {
  private readonly configured = new Set<string>();
  private readonly seen = new Set<string>();

  /** Values from the client's configuration: kept for the life of the client. */
  configure(...values: (string | undefined)[]): void {
    for (const value of values) for (const form of forms(value)) this.configured.add(form);
  }

  /** A client id and secret, with the `client_secret_basic` credential made of them. */
  configureClient(clientId: string | undefined, secret: string | undefined): void {
    this.configure(secret);
    if (clientId !== undefined && secret !== undefined) this.configure(...basicCredentials(clientId, secret));
  }

  /** A value seen at run time (a token, a registered secret, an assertion sent). */
  add(...values: (string | undefined)[]): void {
    for (const value of values) {
      for (const form of forms(value)) {
        if (this.configured.has(form)) continue;
        this.seen.delete(form);
        this.seen.add(form);
        if (this.seen.size > MAX_SEEN) this.seen.delete(this.seen.values().next().value!);
      }
    }
  }

  /** `text` with every known credential, and whatever looks like one, replaced by `[redacted]`. */
  redact(text: string): string {
    let out = text;
    // Longest first, so a value inside a longer one does not leave the rest of it behind.
    const values = [...this.configured, ...this.seen].sort((a, b) => b.length - a.length);
    for (const value of values) if (out.includes(value)) out = out.split(value).join(REDACTED);
    return redactCredentials(out);
  }
}

/** A value as it may come back: as is, percent-encoded, form-encoded. */
function forms(value: string | undefined): string[] {
  if (value === undefined || value.length < MIN_SECRET) return [];
  return [...new Set([value, encodeURIComponent(value), formEncode(value)])];
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** The Base64 credential of `client_secret_basic`, form-encoded first (RFC 6749 §2.3.1) and not. */
function basicCredentials(clientId: string, secret: string): string[] {
  const base64 = (text: string) => Buffer.from(text).toString("base64");
  return [base64(`${formEncode(clientId)}:${formEncode(secret)}`), base64(`${clientId}:${secret}`)];
}

/** The credentials the options hold, in every form they are sent in. */
export function configuredSecrets(options: OAuthOptions): Secrets {
  const secrets = new Secrets();
  secrets.configureClient(options.clientId, options.clientSecret);
  const grant = options.grant;
  if (grant?.type === "jwt_bearer" && typeof grant.assertion === "string") secrets.configure(grant.assertion);
  if (grant?.type === "enterprise") {
    secrets.configureClient(grant.clientId, grant.clientSecret);
    if (typeof grant.idToken === "string") secrets.configure(grant.idToken);
  }
  return secrets;
}
