// Opaque access tokens, asked about at the authorization server (RFC 7662 token introspection) with
// the proxy's own client credentials. An active answer is cached until the token's expiry, so a
// client's calls do not each cost a round trip; inactive answers are not cached.
import { createHash } from 'node:crypto';
import type { ClientCredentials } from '../config/types.js';
import type { Refusal } from './bearer.js';
import { ISSUER_TIMEOUT_MS } from './issuer-keys.js';
import { CLOCK_SKEW_S } from './jwt-check.js';

/** Without an `exp` in the answer, it is trusted for this long. */
const NO_EXP_CACHE_MS = 60_000;
const MAX_CACHED = 10_000;

export type IntrospectionOutcome = { ok: true; claims: Record<string, unknown> } | { ok: false; refusal: Refusal };

export class Introspector {
  /** By SHA-256 of the token: the cache holds no token. */
  private readonly cache = new Map<string, { claims: Record<string, unknown>; until: number }>();

  constructor(
    private readonly client: ClientCredentials | undefined,
    private readonly now: () => number,
  ) {}

  async introspect(token: string, url: string, expect: { issuer: string; audience: string }): Promise<IntrospectionOutcome> {
    const key = createHash('sha256').update(url).update('\0').update(token).digest('base64url');
    const hit = this.cache.get(key);
    if (hit && this.now() < hit.until) return judge(hit.claims, expect, this.now());
    if (hit) this.cache.delete(key);
    let claims: Record<string, unknown>;
    try {
      claims = await this.ask(token, url);
    } catch (err) {
      return { ok: false, refusal: { status: 503, error: 'temporarily_unavailable', description: `token introspection failed: ${(err as Error).message}` } };
    }
    const verdict = judge(claims, expect, this.now());
    if (verdict.ok) this.remember(key, claims);
    return verdict;
  }

  private async ask(token: string, url: string): Promise<Record<string, unknown>> {
    if (!this.client) throw new Error('no client credentials for introspection (MRTR_AUTH_CLIENT_ID, MRTR_AUTH_CLIENT_SECRET)');
    const basic = Buffer.from(`${encodeURIComponent(this.client.clientId)}:${encodeURIComponent(this.client.clientSecret)}`).toString('base64');
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      signal: AbortSignal.timeout(ISSUER_TIMEOUT_MS),
    });
    const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (!res.ok || !body || typeof body !== 'object') throw new Error(`${url} answered HTTP ${res.status}`);
    return body;
  }

  private remember(key: string, claims: Record<string, unknown>): void {
    const exp = claims['exp'];
    const until = typeof exp === 'number' ? exp * 1000 : this.now() + NO_EXP_CACHE_MS;
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, { claims, until });
  }
}

/**
 * An introspection answer as the claims of a validated token, or why not (pure). A client without
 * a user (client credentials) has no `sub`: its subject is `client:<client_id>`.
 */
export function judge(claims: Record<string, unknown>, expect: { issuer: string; audience: string }, nowMs: number): IntrospectionOutcome {
  const invalid = (description: string): IntrospectionOutcome => ({ ok: false, refusal: { status: 401, error: 'invalid_token', description } });
  if (claims['active'] !== true) return invalid('the authorization server says the token is not active');
  const { iss, aud, exp, nbf, sub, client_id } = claims;
  if (iss !== undefined && iss !== expect.issuer) return invalid('the token comes from another issuer (iss)');
  if (aud !== undefined && !(Array.isArray(aud) ? aud : [aud]).includes(expect.audience)) return invalid('the token is not meant for this resource (aud)');
  if (typeof exp === 'number' && exp + CLOCK_SKEW_S < nowMs / 1000) return invalid('the token has expired');
  if (typeof nbf === 'number' && nbf - CLOCK_SKEW_S > nowMs / 1000) return invalid('the token is not valid yet (nbf)');
  const subject = typeof sub === 'string' && sub !== '' ? sub : typeof client_id === 'string' && client_id !== '' ? `client:${client_id}` : undefined;
  if (subject === undefined) return invalid('the token names no subject (sub or client_id)');
  return { ok: true, claims: { ...claims, sub: subject } };
}
