// Credentials an upstream's entry in the configuration file names by environment variable: the
// OAuth client secret and header values. A missing variable is named, never a value.
import { ConfigError } from '../protocol/errors.js';
import type { UpstreamOAuth } from './types.js';

/** The file's `auth:` of an upstream (validated by the schema in file.ts). */
export interface UpstreamAuthShape {
  tokenUrl: string;
  clientId: string;
  clientSecretEnv: string;
  scope?: string | undefined;
  resource?: string | undefined;
}

export function upstreamOAuth(auth: UpstreamAuthShape | undefined, env: Record<string, string | undefined>, where: string): { oauth?: UpstreamOAuth } {
  if (!auth) return {};
  const secret = env[auth.clientSecretEnv];
  // Name the variable, never the value.
  if (secret === undefined || secret === '') throw new ConfigError(`${where}.auth.clientSecretEnv: environment variable ${auth.clientSecretEnv} is not set`);
  return {
    oauth: {
      tokenUrl: auth.tokenUrl,
      clientId: auth.clientId,
      clientSecret: secret,
      ...(auth.scope === undefined ? {} : { scope: auth.scope }),
      ...(auth.resource === undefined ? {} : { resource: auth.resource }),
    },
  };
}

export function resolveHeaders(
  spec: Record<string, string | { env: string; prefix?: string | undefined }>,
  env: Record<string, string | undefined>,
  where: string,
  problems: string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(spec)) {
    if (typeof value === 'string') {
      out[name] = value;
      continue;
    }
    const secret = env[value.env];
    // Name the variable, never the value.
    if (secret === undefined || secret === '') problems.push(`${where}.headers.${name}: environment variable ${value.env} is not set`);
    else out[name] = `${value.prefix ?? ''}${secret}`;
  }
  return out;
}
