// argv (+ environment, + the configuration file) -> ProxyConfig. Pure apart from reading the file
// and generating a key when none is configured: every invalid input becomes a ConfigError naming
// the option or field and what is wrong with it. Flags override the file.
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { ConfigError } from '../protocol/errors.js';
import { LOG_LEVELS, type LogLevel } from '../telemetry/logger.js';
import * as D from './defaults.js';
import { limits, loadConfigFile, type FileConfig } from './file.js';
import { buildLimits, LIMIT_ROWS, scaleOf, type LimitOption } from './limits.js';
import type { LegacyClients, ProxyConfig, Root, SuspendMode, UpstreamConfig, UpstreamLimits, UpstreamTarget } from './types.js';

/** One string option per row of the limits table: `--interaction-ttl`, `--max-sessions`, ... */
const LIMIT_OPTIONS = Object.fromEntries(LIMIT_ROWS.map((r) => [r.option, { type: 'string' }])) as { [O in LimitOption]: { type: 'string' } };

const OPTIONS = {
  config: { type: 'string' },
  stdio: { type: 'boolean' },
  'legacy-clients': { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  upstream: { type: 'string' },
  'state-key': { type: 'string', multiple: true },
  suspend: { type: 'string' },
  'state-store': { type: 'string' },
  'advertise-url': { type: 'string' },
  ...LIMIT_OPTIONS,
  root: { type: 'string', multiple: true },
  'log-level': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

export type CliAction = { action: 'help' } | { action: 'version' } | { action: 'run'; config: ProxyConfig };

export function resolveCli(argv: readonly string[], env: Record<string, string | undefined>): CliAction {
  const dash = argv.indexOf('--');
  const own = dash === -1 ? argv : argv.slice(0, dash);
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  let values: ReturnType<typeof parse>['values'];
  let positionals: string[];
  try {
    ({ values, positionals } = parse(own));
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  if (values.help) return { action: 'help' };
  if (values.version) return { action: 'version' };
  if (positionals.length > 0) {
    throw new ConfigError(`unexpected argument '${positionals[0]}' (put the legacy server's command after --)`);
  }
  return { action: 'run', config: resolveConfig(values, command, env) };
}

function parse(args: readonly string[]) {
  return parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: true });
}

type Values = ReturnType<typeof parse>['values'];

function resolveConfig(v: Values, command: readonly string[], env: Record<string, string | undefined>): ProxyConfig {
  if (v.stdio && (v.host !== undefined || v.port !== undefined)) throw new ConfigError('--stdio serves on stdin/stdout: --host and --port do not apply');
  const file = v.config === undefined ? undefined : loadConfigFile(v.config, env);
  const flagTarget = upstreamTarget(v.upstream, command, file !== undefined);
  const upstreams = file
    ? overrideUpstreams(file, v, flagTarget)
    : [
        {
          name: 'default',
          era: 'legacy' as const,
          target: flagTarget!,
          roots: (v.root ?? []).map(rootFromFlag),
          suspend: { default: suspendMode(v.suspend) ?? 'auto', replay: [], hold: [] },
          ...flagLimits(v, limits({})),
        },
      ];
  const defaultUpstream = file ? file.defaultUpstream : 'default';
  if (v.stdio && defaultUpstream === undefined) throw new ConfigError('--stdio serves one upstream: name it with `default:` in the configuration file');
  const keyEnv = file?.stateKeyEnv ?? 'MRTR_STATE_KEY';
  if (file?.stateKeyEnv !== undefined && v['state-key'] === undefined && !env[keyEnv]) {
    throw new ConfigError(`${v.config}: stateKeyEnv: environment variable ${keyEnv} is not set`);
  }
  return {
    stdio: v.stdio ?? false,
    legacyClients: legacyClients(v['legacy-clients'] ?? file?.legacyClients),
    host: v.host ?? file?.host ?? D.DEFAULT_HOST,
    port: integer('--port', v.port, file?.port ?? D.DEFAULT_PORT, 0, 65535),
    stateKey: stateKeys(v['state-key'], env[keyEnv], keyEnv),
    logLevel: logLevel(v['log-level'] ?? file?.logLevel),
    ...advertiseUrl(v['advertise-url']),
    ...stateStore(v['state-store'] ?? file?.stateStore, v['state-store'] !== undefined ? '--state-store' : `${v.config}: stateStore`),
    upstreams,
    defaultUpstream,
    ...(v.config === undefined ? {} : { configFile: v.config }),
  };
}

/** Limit flags given on the command line override the file for every upstream. */
function flagLimits(v: Values, base: UpstreamLimits): UpstreamLimits {
  return buildLimits((r) => integer(r.flag, v[r.option], base[r.field] / scaleOf(r), r.min, r.max) * scaleOf(r));
}

function overrideUpstreams(file: FileConfig, v: Values, flagTarget: UpstreamTarget | undefined): UpstreamConfig[] {
  if (flagTarget && file.defaultUpstream === undefined) {
    throw new ConfigError('--upstream or -- COMMAND with --config replaces the default upstream, but the file names none (default:)');
  }
  const mode = suspendMode(v.suspend);
  return file.upstreams.map((u) => ({
    ...u,
    ...flagLimits(v, u),
    ...(mode === undefined ? {} : { suspend: { ...u.suspend, default: mode } }),
    ...(flagTarget && u.name === file.defaultUpstream ? { target: flagTarget } : {}),
    ...(v.root && u.name === file.defaultUpstream ? { roots: v.root.map(rootFromFlag) } : {}),
  }));
}

function upstreamTarget(url: string | undefined, command: readonly string[], optional: boolean): UpstreamTarget | undefined {
  if (url !== undefined && command.length > 0) {
    throw new ConfigError('give either --upstream URL or -- COMMAND, not both');
  }
  if (url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ConfigError(`--upstream: '${url}' is not a URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new ConfigError(`--upstream: only http and https URLs are supported, got '${parsed.protocol}'`);
    }
    return { kind: 'http', url: parsed, headers: {} };
  }
  const [cmd, ...args] = command;
  if (cmd === undefined || cmd === '') {
    if (optional) return undefined;
    throw new ConfigError('no legacy server: give --upstream URL, -- COMMAND [ARGS...] or --config FILE');
  }
  return { kind: 'stdio', command: cmd, args };
}

function integer(flag: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${flag}: expected a whole number, got '${raw}'`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${flag}: ${n} is out of range (${min} to ${max})`);
  return n;
}

/**
 * The state keys: `--state-key` (repeatable) or the variable's comma-separated list. The first
 * seals, every one opens (rotation: put the new key first, keep the old one until its states expire).
 */
function stateKeys(flags: string[] | undefined, fromEnv: string | undefined, keyEnv: string): ProxyConfig['stateKey'] {
  let keys: Uint8Array[];
  if (flags !== undefined) {
    // An empty flag is a mistake (`--state-key "$UNSET"`), not a request for a throw-away key.
    if (flags.some((f) => f === '')) throw new ConfigError('--state-key: empty; give a base64url 32-byte key or leave the option out');
    keys = flags.map((raw, i) => stateKey(raw, flags.length === 1 ? '--state-key' : `--state-key (#${i + 1})`));
  } else {
    if (fromEnv === undefined || fromEnv === '') return { bytes: new Uint8Array(randomBytes(32)), keys: [], generated: true };
    const parts = fromEnv.split(',').map((p) => p.trim());
    keys = parts.map((raw, i) => stateKey(raw, parts.length === 1 ? keyEnv : `${keyEnv} (key #${i + 1})`));
  }
  return { bytes: keys[0]!, keys, generated: false };
}

function stateKey(raw: string, source: string): Uint8Array {
  if (raw === '') throw new ConfigError(`${source}: empty`);
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw new ConfigError(`${source}: not base64url`);
  const bytes = new Uint8Array(Buffer.from(raw, 'base64url'));
  // Never echo the value: it is a secret.
  if (bytes.length !== 32) throw new ConfigError(`${source}: must decode to 32 bytes, got ${bytes.length}`);
  return bytes;
}

function rootFromFlag(raw: string): Root {
  // --root URI or --root URI=NAME
  const eq = raw.indexOf('=');
  const uri = eq === -1 ? raw : raw.slice(0, eq);
  const name = eq === -1 ? undefined : raw.slice(eq + 1);
  if (!uri.startsWith('file://')) throw new ConfigError(`--root: '${uri}' must be a file:// URI`);
  return name ? { uri, name } : { uri };
}

/** This instance's base URL for the others: http(s), no path, query or fragment. */
function advertiseUrl(raw: string | undefined): { advertiseUrl?: URL } {
  if (raw === undefined) return {};
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`--advertise-url: '${raw}' is not a URL (expected http://HOST:PORT)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`--advertise-url: only http and https URLs are supported, got '${url.protocol}'`);
  if (url.pathname !== '/' || url.search || url.hash) throw new ConfigError('--advertise-url: give the base URL only (http://HOST:PORT), without a path');
  return { advertiseUrl: url };
}

/** `redis://HOST:PORT[/DB]` (or rediss://) for the shared single-use ledger; absent: in memory. */
function stateStore(raw: string | undefined, source: string): { stateStore?: URL } {
  if (raw === undefined) return {};
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${source}: not a URL (expected redis://HOST:PORT[/DB])`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new ConfigError(`${source}: only redis:// and rediss:// are supported, got '${url.protocol}'`);
  if (url.hostname === '') throw new ConfigError(`${source}: names no host (expected redis://HOST:PORT[/DB])`);
  if (!/^\/?(\d+)?$/.test(url.pathname)) throw new ConfigError(`${source}: the path must be a database number, got '${url.pathname}'`);
  return { stateStore: url };
}

function suspendMode(raw: string | undefined): SuspendMode | undefined {
  if (raw === undefined) return undefined;
  if (raw !== 'auto' && raw !== 'hold' && raw !== 'replay') throw new ConfigError(`--suspend: expected auto, hold or replay, got '${raw}'`);
  return raw;
}

function legacyClients(raw: string | undefined): LegacyClients {
  if (raw === undefined) return D.DEFAULT_LEGACY_CLIENTS;
  if (raw !== 'pass' && raw !== 'reject') throw new ConfigError(`--legacy-clients: expected pass or reject, got '${raw}'`);
  return raw;
}

function logLevel(raw: string | undefined): LogLevel {
  if (raw === undefined) return D.DEFAULT_LOG_LEVEL;
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigError(`--log-level: expected one of ${LOG_LEVELS.join(', ')}, got '${raw}'`);
  }
  return raw as LogLevel;
}
