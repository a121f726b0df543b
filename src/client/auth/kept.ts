import { DpopKey } from "./dpop.js";
import type { Secrets } from "./redact.js";
import type { StoredAuthorization, TokenStore } from "./store.js";

/**
 * What an OAuth session keeps for its server in the token store (registration, tokens, scopes,
 * DPoP key): read once, written through, and every credential in it remembered, to be redacted
 * wherever a server echoes it.
 */
export class KeptAuthorization {
  state: StoredAuthorization | undefined;
  private loaded = false;
  private key: DpopKey | undefined;

  constructor(
    private readonly store: TokenStore,
    /** The entry of the store: the server's URL. */
    private readonly entry: string,
    private readonly secrets: Secrets,
  ) {}

  /** The DPoP key in use, once made or read. */
  get dpop(): DpopKey | undefined {
    return this.key;
  }

  async load(): Promise<StoredAuthorization | undefined> {
    if (!this.loaded) {
      this.state = (await this.store.get(this.entry)) ?? undefined;
      this.loaded = true;
      this.remember(this.state);
    }
    return this.state;
  }

  async save(state: StoredAuthorization): Promise<void> {
    this.state = state;
    this.remember(state);
    await this.store.set(this.entry, state);
  }

  /** Forgets the tokens and registration kept for this server. */
  async forget(): Promise<void> {
    this.state = undefined;
    this.loaded = true;
    this.key = undefined;
    await this.store.delete(this.entry);
  }

  /** The DPoP key of the stored tokens (made when `create`), or `undefined`. */
  async dpopKey(create: boolean): Promise<DpopKey | undefined> {
    if (this.key) return this.key;
    const jwk = this.state?.dpopKey;
    if (jwk) this.key = await DpopKey.fromJwk(jwk);
    else if (create) this.key = await DpopKey.generate();
    return this.key;
  }

  /** The credentials of what is kept, to be redacted wherever a server echoes them. */
  private remember(state: StoredAuthorization | undefined): void {
    this.secrets.add(state?.client?.client_secret, state?.tokens?.access_token, state?.tokens?.refresh_token);
  }
}
