// One authorization server as this resource server sees it: its discovered metadata and its signing
// keys. Keys come from jose's remote JWKS: cached, and fetched again when a token names a `kid` the
// cache does not have (so a key rotation at the issuer needs no restart). A failed discovery is
// retried on a later request rather than remembered.
import type { JWTVerifyGetKey } from 'jose';
import { discoverIssuer, type IssuerMetadata } from './discovery.js';

/** How long to wait for the issuer's metadata, keys or introspection endpoint. */
export const ISSUER_TIMEOUT_MS = 5000;
/** A token with an unknown `kid` refetches the keys at most this often. */
const JWKS_COOLDOWN_MS = 1000;
/** Keys are refetched at least this often even when every `kid` is known. */
const JWKS_MAX_AGE_MS = 10 * 60_000;

export class IssuerKeys {
  private metadata: Promise<IssuerMetadata> | undefined;
  private jwks: JWTVerifyGetKey | undefined;

  constructor(readonly issuer: string) {}

  async describe(): Promise<IssuerMetadata> {
    if (!this.metadata) {
      this.metadata = discoverIssuer(this.issuer, ISSUER_TIMEOUT_MS);
      this.metadata.catch(() => {
        this.metadata = undefined;
      });
    }
    return this.metadata;
  }

  /** The key-lookup function for jwtVerify; throws when the issuer publishes no jwks_uri. */
  async keys(): Promise<JWTVerifyGetKey> {
    if (this.jwks) return this.jwks;
    const meta = await this.describe();
    if (meta.jwks_uri === undefined) throw new Error(`issuer ${this.issuer} publishes no jwks_uri, so JWT access tokens cannot be checked`);
    const { createRemoteJWKSet } = await import('jose');
    this.jwks ??= createRemoteJWKSet(new URL(meta.jwks_uri), {
      timeoutDuration: ISSUER_TIMEOUT_MS,
      cooldownDuration: JWKS_COOLDOWN_MS,
      cacheMaxAge: JWKS_MAX_AGE_MS,
    });
    return this.jwks;
  }
}
