// Decides whether a bearer token may use a route: JWTs are checked locally against the issuer's
// keys, opaque ones introspected (RFC 7662) when the route names an endpoint, then the required scopes. The caller becomes a principal (issuer + subject). One verifier
// serves every route; issuers' metadata and keys are cached across routes and reloads.
import type { ClientAuthConfig, ClientCredentials } from '../config/types.js';
import { principalOf } from '../state/principal.js';
import { grantedScopes, missingScopes, type Refusal } from './bearer.js';
import { IssuerKeys } from './issuer-keys.js';
import { Introspector } from './introspection.js';
import { checkJwt } from './jwt-check.js';

export interface Caller {
  principal: string;
  clientId: string;
  scopes: string[];
  /** Seconds since the epoch. */
  expiresAt?: number;
}

export type Verdict = { ok: true; caller: Caller } | { ok: false; refusal: Refusal };

/** What one route requires, its audience already resolved (the route's resource URL by default). */
export interface RouteAuth extends ClientAuthConfig {
  audience: string;
}

export class TokenVerifier {
  private readonly issuers = new Map<string, IssuerKeys>();
  private readonly introspector: Introspector;

  constructor(
    private readonly now: () => number,
    introspectionClient?: ClientCredentials,
  ) {
    this.introspector = new Introspector(introspectionClient, now);
  }

  /** Discovers an issuer ahead of the first request, so a misconfiguration shows in the log at start. */
  async warm(issuer: string): Promise<void> {
    await this.issuerKeys(issuer).describe();
  }

  async verify(token: string, route: RouteAuth): Promise<Verdict> {
    if (!looksLikeJwt(token)) {
      if (route.introspectionUrl === undefined) return refuse({ status: 401, error: 'invalid_token', description: 'the token is not a JWT' });
      const answer = await this.introspector.introspect(token, route.introspectionUrl, route);
      return answer.ok ? admit(answer.claims, route) : answer;
    }
    let keys: Awaited<ReturnType<IssuerKeys['keys']>>;
    try {
      keys = await this.issuerKeys(route.issuer).keys();
    } catch (err) {
      return refuse({ status: 503, error: 'temporarily_unavailable', description: `the authorization server cannot be reached: ${(err as Error).message}` });
    }
    const checked = await checkJwt(token, keys, { issuer: route.issuer, audience: route.audience, now: this.now() });
    if (!checked.ok) return checked;
    return admit(checked.claims, route);
  }

  private issuerKeys(issuer: string): IssuerKeys {
    let keys = this.issuers.get(issuer);
    if (!keys) {
      keys = new IssuerKeys(issuer);
      this.issuers.set(issuer, keys);
    }
    return keys;
  }
}

/** Validated claims -> the caller, or a 403 naming the scopes the token lacks. */
export function admit(claims: Record<string, unknown>, route: Pick<RouteAuth, 'issuer' | 'scopes'>): Verdict {
  const sub = claims['sub'];
  if (typeof sub !== 'string' || sub === '') return refuse({ status: 401, error: 'invalid_token', description: 'the token names no subject (sub)' });
  const scopes = grantedScopes(claims);
  const missing = missingScopes(scopes, route.scopes);
  if (missing.length > 0) {
    return refuse({ status: 403, error: 'insufficient_scope', description: `the token lacks the scope ${missing.join(' ')}`, scopes: route.scopes });
  }
  const clientId = typeof claims['client_id'] === 'string' ? claims['client_id'] : typeof claims['azp'] === 'string' ? claims['azp'] : sub;
  const exp = claims['exp'];
  return { ok: true, caller: { principal: principalOf(route.issuer, sub), clientId, scopes, ...(typeof exp === 'number' ? { expiresAt: exp } : {}) } };
}

function refuse(refusal: Refusal): Verdict {
  return { ok: false, refusal };
}

function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}
