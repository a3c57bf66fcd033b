// The HTTP listener's front-door settings from flags and the file: the canonical resource URL and
// (per upstream) client authentication. Flags override the file.
import { ConfigError } from '../protocol/errors.js';
import { clientAuthFlags, mergeClientAuth, urlFlag, type ClientAuthShape } from './client-auth.js';
import type { FileConfig } from './file.js';
import { withClientAuth } from './file.js';
import type { HttpFrontConfig, UpstreamConfig } from './types.js';

/** The flags this module reads (parseArgs values). */
export interface FrontFlags {
  'auth-issuer'?: string | undefined;
  'auth-audience'?: string | undefined;
  'auth-scope'?: string[] | undefined;
  'resource-url'?: string | undefined;
  'auth-introspection-url'?: string | undefined;
}

export const FRONT_OPTIONS = {
  'auth-issuer': { type: 'string' },
  'auth-audience': { type: 'string' },
  'auth-scope': { type: 'string', multiple: true },
  'resource-url': { type: 'string' },
  'auth-introspection-url': { type: 'string' },
} as const;

export const INTROSPECTION_CLIENT_ID_ENV = 'MRTR_AUTH_CLIENT_ID';
export const INTROSPECTION_CLIENT_SECRET_ENV = 'MRTR_AUTH_CLIENT_SECRET';

export function resolveHttpFront(
  v: FrontFlags,
  file: FileConfig | undefined,
  upstreams: UpstreamConfig[],
  env: Record<string, string | undefined>,
): HttpFrontConfig {
  const raw = v['resource-url'] ?? file?.resourceUrl;
  const out: HttpFrontConfig = raw === undefined ? {} : { resourceUrl: resourceUrl(v['resource-url'] !== undefined ? '--resource-url' : 'resourceUrl', raw) };
  if (!upstreams.some((u) => u.clientAuth?.introspectionUrl !== undefined)) return out;
  const clientId = env[INTROSPECTION_CLIENT_ID_ENV];
  const clientSecret = env[INTROSPECTION_CLIENT_SECRET_ENV];
  // Name the variables, never their values.
  if (!clientId || !clientSecret) {
    throw new ConfigError(`token introspection needs the proxy's client credentials in ${INTROSPECTION_CLIENT_ID_ENV} and ${INTROSPECTION_CLIENT_SECRET_ENV}`);
  }
  return { ...out, introspectionClient: { clientId, clientSecret } };
}

/** Each upstream's client authentication: the file's top level, then its own block, then the flags. */
export function withFlagClientAuth(upstreams: UpstreamConfig[], v: FrontFlags, file: FileConfig | undefined): UpstreamConfig[] {
  const flags: ClientAuthShape = clientAuthFlags({
    issuer: v['auth-issuer'],
    audience: v['auth-audience'],
    scopes: v['auth-scope'],
    introspectionUrl: v['auth-introspection-url'],
  });
  return upstreams.map((u) => {
    const { clientAuth: _old, ...rest } = u;
    const where = file ? `upstreams.${u.name}.clientAuth` : '--auth-*';
    return { ...rest, ...withClientAuth(mergeClientAuth([file?.clientAuth, file?.upstreamClientAuth[u.name], flags], where)) };
  });
}

/** The resource URL names the proxy's origin and its /mcp path; per-upstream resources derive from it. */
function resourceUrl(source: string, raw: string): string {
  const u = new URL(urlFlag(source, raw));
  if (u.pathname !== '/mcp' || u.search !== '' || u.hash !== '') {
    throw new ConfigError(`${source}: must be SCHEME://HOST[:PORT]/mcp (the proxy's own /mcp endpoint as clients reach it), got '${raw}'`);
  }
  if (u.username !== '' || u.password !== '') throw new ConfigError(`${source}: must not carry credentials`);
  return u.href;
}
