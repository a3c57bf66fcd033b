// The HTTP listener's front-door settings from flags and the file: the canonical resource URL and
// (per upstream) client authentication. Flags override the file.
import { accessSync, constants } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import { ConfigError } from '../protocol/errors.js';
import { clientAuthFlags, mergeClientAuth, urlFlag, type ClientAuthShape } from './client-auth.js';
import { type FileConfig, withClientAuth } from './file-config.js';
import type { HttpFrontConfig, UpstreamConfig } from './types.js';

/** The flags this module reads (parseArgs values). */
export interface FrontFlags {
  'auth-issuer'?: string | undefined;
  'auth-audience'?: string | undefined;
  'auth-scope'?: string[] | undefined;
  'resource-url'?: string | undefined;
  'auth-introspection-url'?: string | undefined;
  'tls-cert'?: string | undefined;
  'tls-key'?: string | undefined;
  'cors-origin'?: string[] | undefined;
  'allowed-host'?: string[] | undefined;
  'allowed-origin'?: string[] | undefined;
  'insecure-no-auth'?: boolean | undefined;
}

export const FRONT_OPTIONS = {
  'auth-issuer': { type: 'string' },
  'auth-audience': { type: 'string' },
  'auth-scope': { type: 'string', multiple: true },
  'resource-url': { type: 'string' },
  'auth-introspection-url': { type: 'string' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  'cors-origin': { type: 'string', multiple: true },
  'allowed-host': { type: 'string', multiple: true },
  'allowed-origin': { type: 'string', multiple: true },
  'insecure-no-auth': { type: 'boolean' },
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
  const out: HttpFrontConfig = {
    ...(raw === undefined ? {} : { resourceUrl: resourceUrl(v['resource-url'] !== undefined ? '--resource-url' : 'resourceUrl', raw) }),
    ...tls(v['tls-cert'], v['tls-key']),
    corsOrigins: (v['cors-origin'] ?? []).map((o) => origin('--cors-origin', o)),
    allowedHosts: (v['allowed-host'] ?? []).map(hostname),
    allowedOrigins: (v['allowed-origin'] ?? []).map((o) => origin('--allowed-origin', o)),
  };
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

/**
 * Off loopback, every route must authenticate its clients unless the operator says otherwise: a
 * proxy reachable from the network would otherwise hand anybody every legacy server behind it.
 */
export function checkExposure(host: string, upstreams: UpstreamConfig[], insecureNoAuth: boolean): void {
  if (isLoopback(host) || insecureNoAuth) return;
  const open = upstreams.filter((u) => !u.clientAuth).map((u) => u.name);
  if (open.length === 0) return;
  throw new ConfigError(
    `--host ${host} is not loopback and upstream ${open.join(', ')} has no client authentication: give --auth-issuer (or clientAuth), or --insecure-no-auth to serve it anyway`,
  );
}

/** 127.0.0.0/8 and ::1 (an IPv4-mapped 127.x.y.z too): the addresses only this machine reaches. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  const address = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

function tls(cert: string | undefined, key: string | undefined): Pick<HttpFrontConfig, 'tls'> {
  if (cert === undefined && key === undefined) return {};
  if (cert === undefined || key === undefined) throw new ConfigError('--tls-cert and --tls-key go together');
  for (const [flag, file] of [
    ['--tls-cert', cert],
    ['--tls-key', key],
  ] as const) {
    try {
      accessSync(file, constants.R_OK);
    } catch (err) {
      throw new ConfigError(`${flag}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  return { tls: { certFile: cert, keyFile: key } };
}

/** An origin as a browser sends it: SCHEME://HOST[:PORT], nothing else. */
function origin(flag: string, raw: string): string {
  let u: URL | undefined;
  try {
    u = new URL(raw);
  } catch {}
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.origin !== raw) {
    throw new ConfigError(`${flag}: '${raw}' is not an origin (SCHEME://HOST[:PORT], no path or trailing slash)`);
  }
  return raw;
}

function hostname(raw: string): string {
  if (!/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)$/.test(raw)) {
    throw new ConfigError(`--allowed-host: '${raw}' is not a host name (no port; IPv6 in brackets)`);
  }
  return raw.toLowerCase();
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
