// What a configuration file contributes once validated (file.ts), and the helpers the command
// line shares with it. Free of zod: the command line without --config is read before the schema
// library loads, so the legacy children start sooner (cli/main.ts).
import { ConfigError } from '../protocol/errors.js';
import type { LogFormat, LogLevel } from '../telemetry/log-levels.js';
import type { ClientAuthShape } from './client-auth.js';
import { buildLimits, scaleOf, type LimitInputs } from './limits.js';
import type { ClientAuthConfig, LegacyClients, UpstreamConfig, UpstreamLimits } from './types.js';

/** A problem with a configuration file or object: reported without the command line's usage hint. */
export class ConfigFileError extends ConfigError {}

export interface ConfigSource {
  /** Prefixes every problem: the file's path, or a caller's name for an object. */
  source: string;
  /** Relative stdio `cwd` resolves against this; it is also the default `cwd`. */
  baseDir: string;
}

/** What the file contributes; command-line flags are applied on top by resolve-argv.ts. */
export interface FileConfig {
  host?: string;
  port?: number;
  metricsPort?: number;
  accessLog?: 'on' | 'off';
  fastLane?: 'on' | 'off';
  legacyClients?: LegacyClients;
  logLevel?: LogLevel;
  logFormat?: LogFormat;
  stateKeyEnv?: string;
  stateStore?: string;
  defaultUpstream?: string;
  audit?: { file: string; maxBytes?: number; content?: boolean; questions?: boolean };
  resourceUrl?: string;
  /** The top-level `clientAuth`, for flags to be merged over. */
  clientAuth?: ClientAuthShape;
  /** Each upstream's own `clientAuth`, by name. */
  upstreamClientAuth: Record<string, ClientAuthShape | undefined>;
  upstreams: UpstreamConfig[];
  /** The variables the file reads headers and client secrets from: --pass-environment withholds them. */
  credentialEnv: string[];
}

/** Reads, validates and resolves a configuration file (file.ts's loadConfigFile). */
export type LoadConfigFile = (path: string, env: Record<string, string | undefined>) => FileConfig;

/** Resolved limits (milliseconds, counts) from values in the file's units; the table's defaults for a `kind` upstream fill gaps. */
export function limits(l: LimitInputs, kind: string): UpstreamLimits {
  return buildLimits((r) => {
    const given = l[r.key];
    return given === undefined ? undefined : given * scaleOf(r);
  }, kind);
}

export function withClientAuth(auth: ClientAuthConfig | undefined): { clientAuth?: ClientAuthConfig } {
  return auth === undefined ? {} : { clientAuth: auth };
}
