import type {
  AuthChallenge,
  AuthorizedRequest,
  HttpAuthorizer,
} from "../../transports/http/shared/authorizer.js";
import { type Challenge, oauthChallenge, parseWwwAuthenticate, scopesOf } from "./challenge.js";
import { type Discovered, discover, messageOf } from "./discovery.js";
import { dpopSupported } from "./dpop.js";
import { isOAuthError, OAuthError } from "./errors.js";
import { obtainTokens, refreshTokens } from "./flow.js";
import { OAuthHttp } from "./http.js";
import { checkIssuerOption } from "./issuer.js";
import { KeptAuthorization } from "./kept.js";
import type { OAuthOptions } from "./options.js";
import { configuredSecrets, type Secrets } from "./redact.js";
import { MemoryTokenStore, type StoredTokens } from "./store.js";

/** Tokens this close to expiry are refreshed before they are used. */
const REFRESH_MARGIN = 30_000;

/** How one authorization is asked for. */
export interface AuthorizeRequest {
  /** The challenge that asked for it, if any. */
  challenge?: Challenge;
  /** A step-up: keep what was asked for before and add the challenge's scopes. */
  stepUp?: boolean;
}

/**
 * The OAuth client of one protected MCP server: authorizes the HTTP transport's requests and
 * answers its `401`/`403` challenges. Discovers the authorization server, identifies the client,
 * obtains tokens with the configured grant, refreshes them, steps up on `insufficient_scope`
 * (a bounded number of times), follows the server to a new authorization server, and keeps what
 * it learned in the token store. Tokens go only to the MCP server's origin and the
 * authorization server's token endpoint; pre-registered credentials only to their `issuer`; what
 * is kept (a registration, tokens) is kept with the issuer it came from and used with no other.
 */
export class OAuthSession implements HttpAuthorizer {
  /** The MCP endpoint this session authorizes requests to. */
  readonly server: URL;
  readonly options: OAuthOptions;
  private readonly http: OAuthHttp;
  /** Every credential this session holds or sent, kept out of its errors. */
  private readonly secrets: Secrets;
  /** What is kept for the server: registration, tokens, scopes, DPoP key. */
  private readonly kept: KeptAuthorization;
  private discovered: Discovered | undefined;
  private running: Promise<void> | undefined;
  /** The access token each request in flight was sent with. */
  private readonly sent = new WeakMap<AuthorizedRequest, string>();
  /** How many times tokens were obtained or refreshed. */
  private obtained = 0;
  /**
   * Authorizations in a row whose token the server refused again; reset when a request it refused
   * goes through. Another request's success does not reset it: a server that accepts `initialize`
   * but refuses `tools/list` for its scope would otherwise get a fresh round of step-ups.
   */
  private refusedInARow = 0;
  /** The requests refused with a challenge, until they go through. */
  private readonly refused = new WeakSet<AuthorizedRequest>();

  /**
   * Throws a `TypeError` for options that cannot work, before anything is sent: pre-registered
   * credentials (`clientSecret`, `clientPrivateKey`, a static `jwt_bearer` assertion) without the
   * `issuer` they belong to, or an `issuer` that is no issuer identifier.
   */
  constructor(server: string | URL, options: OAuthOptions = {}, base: { fetch?: typeof fetch } = {}) {
    checkIssuerOption(options);
    this.server = new URL(server);
    this.server.hash = "";
    this.options = options;
    this.secrets = configuredSecrets(options);
    this.kept = new KeptAuthorization(
      options.store ?? new MemoryTokenStore(),
      this.server.href,
      this.secrets,
    );
    this.http = new OAuthHttp(options.fetch ?? base.fetch, options.requestTimeout ?? 30_000, {
      server: this.server,
      allowPrivateNetworks: options.allowPrivateNetworks === true,
    });
  }

  /** The tokens held now, if any. */
  async tokens(): Promise<StoredTokens | undefined> {
    return (await this.kept.load())?.tokens;
  }

  /** How many times this session obtained (or refreshed) tokens. */
  get authorizations(): number {
    return this.obtained;
  }

  /** Resolves once no authorization is running. */
  async settled(): Promise<void> {
    while (this.running) await this.running.catch(() => {});
  }

  /** Authorizes now, without waiting for the server to ask (a `login`). */
  authorize(): Promise<void> {
    return this.once(() => this.acquire({}));
  }

  /** Forgets the tokens and registration kept for this server. */
  forget(): Promise<void> {
    return this.kept.forget();
  }

  async headers(request: AuthorizedRequest): Promise<Record<string, string>> {
    this.sent.delete(request);
    // Tokens are for the MCP server alone.
    if (request.url.origin !== this.server.origin) return {};
    if (this.running) await this.running.catch(() => {});
    let tokens = (await this.kept.load())?.tokens;
    if (tokens && expiresSoon(tokens) && tokens.refresh_token !== undefined) {
      await this.once(() => this.refresh(false)).catch(() => {});
      tokens = this.kept.state?.tokens;
    }
    if (!tokens) return {};
    this.sent.set(request, tokens.access_token);
    if (tokens.token_type !== "dpop") return { authorization: `Bearer ${tokens.access_token}` };
    const key = await this.kept.dpopKey(false);
    if (!key) return {};
    return {
      authorization: `DPoP ${tokens.access_token}`,
      dpop: await key.proof(request.method, request.url, tokens.access_token),
    };
  }

  async challenged(challenge: AuthChallenge, request: AuthorizedRequest, attempt: number): Promise<boolean> {
    const sentToken = this.sent.get(request);
    if (request.url.origin !== this.server.origin) return false;
    const parsed = oauthChallenge(parseWwwAuthenticate(challenge.wwwAuthenticate));
    const error = parsed?.params.error;
    if (challenge.status === 401 && error === "use_dpop_nonce" && challenge.dpopNonce && this.kept.dpop) {
      if (attempt >= 2) return false;
      this.kept.dpop.setNonce(request.url, challenge.dpopNonce);
      return true;
    }
    if (challenge.status === 403 && error !== "insufficient_scope") return false;
    this.refused.add(request);
    const current = this.kept.state?.tokens?.access_token;
    // Another request got or renewed the token since this one was sent (with none, or an older
    // one): sending it again is enough, and starting another authorization would not count.
    if (current !== undefined && current !== sentToken) return true;
    if (sentToken !== undefined && sentToken === current) this.refusedInARow++;
    const limit = this.options.maxAuthorizations ?? 3;
    if (this.refusedInARow >= limit) {
      // The next request may try again; this one has had its tries.
      this.refusedInARow = 0;
      throw new OAuthError(
        `${this.server.href} still refuses the request (HTTP ${challenge.status}${error ? ` ${error}` : ""}) after ${limit} authorizations`,
        error === undefined ? {} : { oauthError: error },
      );
    }
    await this.once(async () => {
      if (challenge.status === 401 && attempt === 0 && sentToken !== undefined && (await this.refresh(true)))
        return;
      await this.acquire({ ...(parsed && { challenge: parsed }), stepUp: challenge.status === 403 });
    });
    return true;
  }

  accepted(request: AuthorizedRequest): void {
    if (!this.refused.delete(request)) return;
    const sentToken = this.sent.get(request);
    if (sentToken !== undefined && sentToken === this.kept.state?.tokens?.access_token)
      this.refusedInARow = 0;
  }

  /** One authorization at a time: a request that needs one while another runs waits for it. */
  private once(run: () => Promise<unknown>): Promise<void> {
    this.running ??= run()
      .then(() => {})
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** Discovery, fresh when asked (after a `401`) or when nothing was discovered yet. */
  private async discovery(fresh: boolean, resourceMetadataUrl?: string): Promise<Discovered> {
    if (!fresh && this.discovered) return this.discovered;
    this.discovered = await discover(this.server, resourceMetadataUrl, this.http, this.options.issuer);
    return this.discovered;
  }

  /** Refreshes the tokens; `false` (and the tokens dropped) if that is not possible. */
  private async refresh(fresh: boolean): Promise<boolean> {
    const state = await this.kept.load();
    const refreshToken = state?.tokens?.refresh_token;
    if (!state || refreshToken === undefined) return false;
    try {
      const found = await this.discovery(fresh);
      if (found.as.issuer !== state.issuer) {
        // The server moved to another authorization server: what the old one issued is useless there.
        await this.forget();
        return false;
      }
      const dpop = state.tokens?.token_type === "dpop" ? await this.kept.dpopKey(false) : undefined;
      const tokens = await refreshTokens(
        { found, state, options: this.options, http: this.http, dpop, secrets: this.secrets },
        refreshToken,
      );
      await this.kept.save({ ...state, tokens });
      this.obtained++;
      return true;
    } catch (error) {
      if (!isOAuthError(error)) throw error;
      const { tokens: _dropped, ...rest } = state;
      await this.kept.save(rest);
      return false;
    }
  }

  /**
   * A new authorization with the configured grant. Whatever fails in it (the host's
   * `onAuthorizationUrl` included) fails as an `OAuthError`: the request that needed it cannot go on.
   */
  private async acquire(request: AuthorizeRequest): Promise<void> {
    try {
      await this.authorizeAnew(request);
    } catch (error) {
      if (isOAuthError(error)) throw error;
      throw new OAuthError(
        `Authorizing for ${this.server.href} failed: ${this.secrets.redact(messageOf(error))}`,
        {},
        { cause: error },
      );
    }
  }

  /** Discovery, client identity, tokens. */
  private async authorizeAnew(request: AuthorizeRequest): Promise<void> {
    const found = await this.discovery(true, request.challenge?.params.resource_metadata);
    let state = await this.kept.load();
    if (state && state.issuer !== found.as.issuer) {
      // A new authorization server (SEP-2352): nothing from the old one is reused there.
      await this.forget();
      state = undefined;
    }
    const dpop = this.wantsDpop(found, request.challenge) ? await this.kept.dpopKey(true) : undefined;
    const result = await obtainTokens({
      found,
      state,
      options: this.options,
      http: this.http,
      dpop,
      secrets: this.secrets,
      challengedScopes: scopesOf(request.challenge?.params.scope),
      previousScopes: request.stepUp ? state?.scopes : undefined,
      // Kept at once: a sign-in abandoned now needs no new registration next time.
      onClient: async (client) => {
        state = { ...state, issuer: found.as.issuer, resource: found.resource, ...(client && { client }) };
        await this.kept.save(state);
      },
    });
    await this.kept.save({
      issuer: found.as.issuer,
      resource: found.resource,
      ...(result.client && { client: result.client }),
      tokens: result.tokens,
      scopes: result.scopes,
      ...(dpop && { dpopKey: await dpop.toJwk() }),
    });
    this.obtained++;
  }

  /** DPoP when asked for, or (by default) when both the authorization server and the server want it. */
  private wantsDpop(found: Discovered, challenge: Challenge | undefined): boolean {
    const setting = this.options.dpop ?? "auto";
    if (setting !== "auto") return setting;
    if (!dpopSupported(found.as)) return false;
    const metadata = found.metadata;
    return (
      challenge?.scheme === "dpop" ||
      metadata?.dpop_bound_access_tokens_required === true ||
      (Array.isArray(metadata?.dpop_signing_alg_values_supported) &&
        metadata.dpop_signing_alg_values_supported.length > 0)
    );
  }
}

function expiresSoon(tokens: StoredTokens): boolean {
  return tokens.expires_at !== undefined && tokens.expires_at - REFRESH_MARGIN <= Date.now();
}
