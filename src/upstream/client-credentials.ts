// The proxy's own access token for an HTTP upstream, by OAuth client credentials (RFC 6749 4.4,
// client_secret_basic). One token per (token endpoint, client, scope, resource) for each proxy
// instance, shared by every session, fetched on first use and again before it expires. The
// client's token never comes here: the proxy authenticates upstream as itself.
import type { UpstreamOAuth, UpstreamTarget } from '../config/types.js';

/** Headers for one upstream request, resolved when the request is sent. */
export type HeaderSource = () => Promise<Record<string, string>>;

/** A token is replaced when less than this share of its lifetime, or this many ms, is left. */
const REFRESH_SHARE = 0.2;
const REFRESH_MIN_MS = 5000;
const TOKEN_TIMEOUT_MS = 10_000;

export class TokenEndpointError extends Error {
  override readonly name = 'TokenEndpointError';
}

export class ClientCredentialsToken {
  private current: { value: string; refreshAt: number } | undefined;
  private fetching: Promise<string> | undefined;

  constructor(
    private readonly auth: UpstreamOAuth,
    private readonly now: () => number = Date.now,
  ) {}

  /** A token that is not about to expire: the cached one, or a new one. */
  async token(): Promise<string> {
    if (this.current && this.now() < this.current.refreshAt) return this.current.value;
    this.fetching ??= this.fetch().finally(() => {
      this.fetching = undefined;
    });
    return this.fetching;
  }

  private async fetch(): Promise<string> {
    const body = new URLSearchParams({ grant_type: 'client_credentials' });
    if (this.auth.scope) body.set('scope', this.auth.scope);
    if (this.auth.resource) body.set('resource', this.auth.resource);
    const basic = Buffer.from(`${encodeURIComponent(this.auth.clientId)}:${encodeURIComponent(this.auth.clientSecret)}`).toString('base64');
    const started = this.now();
    let res: Response;
    try {
      res = await fetch(this.auth.tokenUrl, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
      });
    } catch (err) {
      throw new TokenEndpointError(`cannot reach the token endpoint ${this.auth.tokenUrl}: ${(err as Error).message}`);
    }
    const json = (await res.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown; error?: unknown };
    // The endpoint's error code is safe to show; the response never echoes the secret.
    if (!res.ok || typeof json.access_token !== 'string') {
      throw new TokenEndpointError(
        `the token endpoint ${this.auth.tokenUrl} refused client ${this.auth.clientId}: HTTP ${res.status} ${String(json.error ?? '')}`.trim(),
      );
    }
    const lifetimeMs = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in * 1000 : 60_000;
    this.current = { value: json.access_token, refreshAt: started + refreshAfter(lifetimeMs) };
    return json.access_token;
  }
}

/** When to replace a token with this lifetime (pure): before the last fifth of it, at least 5 s early. */
export function refreshAfter(lifetimeMs: number): number {
  return Math.max(0, lifetimeMs - Math.max(lifetimeMs * REFRESH_SHARE, REFRESH_MIN_MS));
}

/** Upstream credentials kept at most; the least recently used goes first (reloads may name new ones). */
export const MAX_TOKENS = 64;

/**
 * One proxy instance's tokens, one per (token endpoint, client, scope, resource): every session and
 * route of an upstream shares it. Keyed without the secret; a changed secret (a reload) replaces
 * the entry.
 */
export class TokenCache {
  private readonly tokens = new Map<string, { secret: string; token: ClientCredentialsToken }>();

  get(auth: UpstreamOAuth): ClientCredentialsToken {
    const key = JSON.stringify([auth.tokenUrl, auth.clientId, auth.scope ?? '', auth.resource ?? '']);
    const known = this.tokens.get(key);
    this.tokens.delete(key);
    const entry = known && known.secret === auth.clientSecret ? known : { secret: auth.clientSecret, token: new ClientCredentialsToken(auth) };
    this.tokens.set(key, entry);
    if (this.tokens.size > MAX_TOKENS) this.tokens.delete(this.tokens.keys().next().value as string);
    return entry.token;
  }

  /** How many are kept (for tests). */
  get size(): number {
    return this.tokens.size;
  }
}

/** The configured headers of an HTTP upstream, plus `Authorization: Bearer` with the proxy's own token when it has `auth`. */
export function headerSourceFor(target: Extract<UpstreamTarget, { kind: 'http' }>, tokens: TokenCache): HeaderSource {
  const { headers, oauth } = target;
  if (!oauth) return async () => headers;
  const token = tokens.get(oauth);
  return async () => ({ ...headers, authorization: `Bearer ${await token.token()}` });
}
