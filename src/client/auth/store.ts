import type { JWK } from "jose";

/** Tokens from an authorization server. */
export interface StoredTokens {
  access_token: string;
  /** `bearer` or `dpop` (lower case). */
  token_type: string;
  refresh_token?: string;
  /** When the access token expires, in ms since the epoch. */
  expires_at?: number;
  /** The scopes granted (or, when the server did not say, the scopes asked for). */
  scope?: string;
}

/** How the client is known to one authorization server. */
export interface StoredClient {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method?: string;
  /** When the registered secret expires, in ms since the epoch (0 or absent: never). */
  client_secret_expires_at?: number;
}

/** What the client keeps about one protected server. */
export interface StoredAuthorization {
  /** The issuer of the authorization server the client and tokens belong to. */
  issuer: string;
  /** The resource the tokens are for (the server's protected-resource identifier). */
  resource: string;
  /** The client registered (or identified) at `issuer`; not kept for pre-registered clients. */
  client?: StoredClient;
  tokens?: StoredTokens;
  /** The scopes last asked for, so a step-up asks for these and more. */
  scopes?: string[];
  /** The DPoP key pair the tokens are bound to, as private JWK. */
  dpopKey?: JWK;
}

/**
 * Where the OAuth client keeps what it learned per protected server, keyed by the server's URL.
 * Implementations may be asynchronous; values are plain JSON.
 */
export interface TokenStore {
  get(key: string): Promise<StoredAuthorization | undefined> | StoredAuthorization | undefined;
  set(key: string, value: StoredAuthorization): Promise<void> | void;
  delete(key: string): Promise<void> | void;
}

/** The default store: in memory, for the life of the process. */
export class MemoryTokenStore implements TokenStore {
  private readonly entries = new Map<string, StoredAuthorization>();

  get(key: string): StoredAuthorization | undefined {
    const value = this.entries.get(key);
    return value === undefined ? undefined : structuredClone(value);
  }

  set(key: string, value: StoredAuthorization): void {
    this.entries.set(key, structuredClone(value));
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
