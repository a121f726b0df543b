export type {
  AuthChallenge,
  AuthorizedRequest,
  HttpAuthorizer,
} from "../../transports/http/shared/authorizer.js";
export { openBrowser } from "./browser.js";
export { type Challenge, parseWwwAuthenticate } from "./challenge.js";
export type { ResourceMetadata } from "./discovery.js";
export { isOAuthError, OAuthError, type OAuthErrorData } from "./errors.js";
export { defaultOAuthDirectory, FileTokenStore } from "./file-store.js";
export { type LoopbackReceiver, startLoopbackReceiver } from "./loopback.js";
export type {
  AuthorizationCodeGrant,
  AuthorizationUrlHandler,
  AuthorizationUrlResult,
  ClientCredentialsGrant,
  ClientPrivateKey,
  EnterpriseGrant,
  JwtBearerGrant,
  OAuthGrant,
  OAuthOptions,
  TokenEndpointAuthMethod,
} from "./options.js";
export { OAuthSession } from "./session.js";
export {
  MemoryTokenStore,
  type StoredAuthorization,
  type StoredClient,
  type StoredTokens,
  type TokenStore,
} from "./store.js";
