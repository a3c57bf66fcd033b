// Client authentication settings (the proxy as an OAuth 2.1 resource server): the file's
// `clientAuth` (top level and per upstream) and the --auth-* flags, merged into one resolved
// ClientAuthConfig per upstream. Flags override the file; an upstream's own block overrides the top.
import { ConfigError } from '../protocol/errors.js';
import type { ClientAuthConfig } from './types.js';

/** One OAuth scope (RFC 6749 `scope-token`). */
export const OAUTH_SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** `clientAuth:` as the file gives it (validated by file.ts's schema) or the --auth-* flags make it. */
export interface ClientAuthShape {
  issuer?: string | undefined;
  audience?: string | undefined;
  scopes?: string[] | undefined;
  introspectionUrl?: string | undefined;
}

/** Merges layers of partial settings, later ones winning; no issuer in the end means no authentication. */
export function mergeClientAuth(layers: Array<ClientAuthShape | undefined>, where: string): ClientAuthConfig | undefined {
  const merged: ClientAuthShape = {};
  for (const l of layers) for (const [k, v] of Object.entries(l ?? {})) if (v !== undefined) (merged as Record<string, unknown>)[k] = v;
  if (merged.issuer === undefined) {
    const stray = Object.keys(merged)[0];
    if (stray) throw new ConfigError(`${where}: ${stray} needs an issuer (--auth-issuer or clientAuth.issuer)`);
    return undefined;
  }
  return {
    issuer: merged.issuer,
    scopes: merged.scopes ?? [],
    ...(merged.audience === undefined ? {} : { audience: merged.audience }),
    ...(merged.introspectionUrl === undefined ? {} : { introspectionUrl: merged.introspectionUrl }),
  };
}

/** The --auth-* flags as a layer; each URL flag is checked like the file's fields. */
export function clientAuthFlags(v: {
  issuer?: string | undefined;
  audience?: string | undefined;
  scopes?: string[] | undefined;
  introspectionUrl?: string | undefined;
}): ClientAuthShape {
  const out: ClientAuthShape = {};
  if (v.issuer !== undefined) out.issuer = urlFlag('--auth-issuer', v.issuer);
  if (v.introspectionUrl !== undefined) out.introspectionUrl = urlFlag('--auth-introspection-url', v.introspectionUrl);
  if (v.audience !== undefined) {
    if (v.audience === '') throw new ConfigError('--auth-audience: empty');
    out.audience = v.audience;
  }
  if (v.scopes !== undefined) {
    const bad = v.scopes.find((s) => !OAUTH_SCOPE.test(s));
    if (bad !== undefined) throw new ConfigError(`--auth-scope: '${bad}' is not a valid OAuth scope (one scope per flag)`);
    out.scopes = v.scopes;
  }
  return out;
}

export function urlFlag(flag: string, raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`${flag}: '${raw}' is not a URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError(`${flag}: must be an http:// or https:// URL, got '${raw}'`);
  return raw;
}
