// argv (+ environment, + the configuration file) -> ProxyConfig. Pure apart from reading the file
// and generating a key when none is configured: every invalid input becomes a ConfigError naming
// the option or field and what is wrong with it. Flags override the file. Loads no zod: the file is
// read by the loader it is given (resolve.ts gives file.ts's; cli/main.ts only for a --config).
import { parseArgs } from 'node:util';
import { ConfigError } from '../protocol/errors.js';
import { tracingPlan, TracingEnvError } from '../telemetry/otel-env.js';
import { envFromFlags, passedEnvironment, secretNames, STATE_KEY_ENV, withheldNames } from './child-env.js';
import * as D from './defaults.js';
import { ConfigFileError, type FileConfig, limits, type LoadConfigFile } from './file-config.js';
import { advertiseUrl, stateKeys, stateKeysFromFile, stateStore } from './instances.js';
import { checkExposure, FRONT_OPTIONS, isLoopback, resolveHttpFront, withFlagClientAuth } from './http-front.js';
import { buildLimits, LIMIT_ROWS, scaleOf, type LimitOption } from './limits.js';
import { checkDashValues, parserMessage, positionalMessage } from './argv-messages.js';
import { readKeyFile } from './state-key.js';
import { type ChildUser, parseChildUser, systemUserDatabase } from './child-user.js';
import { logFormat, logLevel } from './logging.js';
import type { AuditConfig, LegacyClients, ProxyConfig, Root, SessionScope, SuspendMode, UpstreamConfig, UpstreamLimits, UpstreamTarget } from './types.js';

/** One string option per row of the limits table: `--interaction-ttl`, `--max-sessions`, ... */
const LIMIT_OPTIONS = Object.fromEntries(LIMIT_ROWS.map((r) => [r.option, { type: 'string' }])) as { [O in LimitOption]: { type: 'string' } };

/** Every option of the proxy's command line (test/e2e/cli.test.ts: each is in --help and the option table of docs/configuration.md). */
export const PROXY_OPTIONS = {
  config: { type: 'string' },
  stdio: { type: 'boolean' },
  'legacy-clients': { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  'metrics-port': { type: 'string' },
  'access-log': { type: 'string' },
  'fast-lane': { type: 'string' },
  upstream: { type: 'string' },
  'upstream-transport': { type: 'string' },
  cwd: { type: 'string' },
  'pass-environment': { type: 'boolean' },
  'state-key': { type: 'string', multiple: true },
  'state-key-file': { type: 'string' },
  env: { type: 'string', multiple: true },
  'child-user': { type: 'string' },
  suspend: { type: 'string' },
  'session-scope': { type: 'string' },
  'state-store': { type: 'string' },
  'advertise-url': { type: 'string' },
  ...LIMIT_OPTIONS,
  root: { type: 'string', multiple: true },
  ...FRONT_OPTIONS,
  'log-level': { type: 'string' },
  'log-format': { type: 'string' },
  audit: { type: 'string' },
  'audit-max-bytes': { type: 'string' },
  'audit-content': { type: 'boolean' },
  'audit-questions': { type: 'boolean' },
  dashboard: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

export type CliAction = { action: 'help' } | { action: 'version' } | { action: 'run'; config: ProxyConfig };

/**
 * The command line, resolved. A `--config` file is read with `load` (file.ts's loadConfigFile,
 * which brings zod): resolve.ts passes it always, cli/main.ts only when the command line names a
 * file (namesConfigFile), so that without one the legacy children start before zod loads.
 */
export function resolveArgv(argv: readonly string[], env: Record<string, string | undefined>, load: LoadConfigFile | undefined): CliAction {
  const dash = argv.indexOf('--');
  const own = dash === -1 ? argv : argv.slice(0, dash);
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  let values: ReturnType<typeof parse>['values'];
  let positionals: string[];
  checkDashValues(own, PROXY_OPTIONS);
  try {
    ({ values, positionals } = parse(own));
  } catch (err) {
    throw new ConfigError(parserMessage(err as Error & { code?: string }, PROXY_OPTIONS));
  }
  if (values.help) return { action: 'help' };
  if (values.version) return { action: 'version' };
  if (positionals.length > 0) throw new ConfigError(positionalMessage(own, positionals[0]!));
  if (values.config !== undefined && load === undefined) throw new Error('internal: --config given, but no configuration file loader');
  const file = values.config === undefined ? undefined : load!(values.config, env);
  return { action: 'run', config: resolveConfig(values, command, env, file) };
}

/** Whether `resolveArgv` may need a file loader: some argument before `--` is `--config` (or `--config=FILE`). */
export function namesConfigFile(argv: readonly string[]): boolean {
  const dash = argv.indexOf('--');
  return (dash === -1 ? argv : argv.slice(0, dash)).some((a) => a === '--config' || a.startsWith('--config='));
}

function parse(args: readonly string[]) {
  return parseArgs({ args: [...args], options: PROXY_OPTIONS, strict: true, allowPositionals: true });
}

type Values = ReturnType<typeof parse>['values'];

export function resolveConfig(
  v: Values,
  command: readonly string[],
  env: Record<string, string | undefined>,
  file: FileConfig | undefined,
  source: string | undefined = v.config,
): ProxyConfig {
  if (v.stdio && (v.host !== undefined || v.port !== undefined)) throw new ConfigError('--stdio serves on stdin/stdout: --host and --port do not apply');
  const httpOnly = (
    [
      'auth-issuer',
      'auth-audience',
      'auth-scope',
      'auth-introspection-url',
      'resource-url',
      'tls-cert',
      'tls-key',
      'cors-origin',
      'allowed-host',
      'allowed-origin',
      'insecure-no-auth',
    ] as const
  ).find((k) => v[k] !== undefined);
  if (v.stdio && httpOnly) throw new ConfigError(`--stdio: the caller is the local user; --${httpOnly} applies to the HTTP front`);
  const flagTarget = upstreamTarget(v, command, file !== undefined);
  const upstreams = withFlagClientAuth(
    file
      ? overrideUpstreams(file, v, flagTarget)
      : [
          {
            name: 'default',
            era: 'legacy' as const,
            target: flagTarget!,
            roots: (v.root ?? []).map(rootFromFlag),
            suspend: { default: suspendMode(v.suspend) ?? 'auto', replay: [], hold: [] },
            ...sessionScopeOption(v['session-scope']),
            ...flagLimits(v, limits({}, flagTarget!.kind)),
          },
        ],
    v,
    file,
  );
  const defaultUpstream = file ? file.defaultUpstream : 'default';
  if (v.stdio && defaultUpstream === undefined) throw new ConfigError('--stdio serves one upstream: name it with `default:` in the configuration file');
  if (v.stdio && upstreams.some((u) => u.name === defaultUpstream && u.clientAuth)) {
    throw new ConfigError(`--stdio: the caller is the local user; clientAuth of upstream '${defaultUpstream}' applies to the HTTP front`);
  }
  if (v.stdio && upstreams.some((u) => u.name === defaultUpstream && u.cutover)) {
    throw new ConfigError(
      `--stdio: the cutover of upstream '${defaultUpstream}' is routed by the HTTP front only; serve it over HTTP, or remove cutover: to serve every item from the legacy server`,
    );
  }
  if (v['pass-environment']) passEnvironment(upstreams, passedEnvironment(env, withheldNames(file?.stateKeyEnv, file?.credentialEnv ?? [])));
  if (v.env) addFlagEnv(upstreams, defaultUpstream, envFromFlags(v.env, env, secretNames(file?.stateKeyEnv)));
  if (v['child-user'] !== undefined) setChildUser(upstreams, parseChildUser(v['child-user'], '--child-user', systemUserDatabase()));
  const keyEnv = file?.stateKeyEnv ?? STATE_KEY_ENV;
  if (v['state-key'] !== undefined && v['state-key-file'] !== undefined) throw new ConfigError('give either --state-key or --state-key-file, not both');
  const keyFlag = v['state-key-file'] !== undefined ? '--state-key-file' : v['state-key'] !== undefined ? '--state-key' : undefined;
  if (file?.stateKeyEnv !== undefined && keyFlag === undefined && !env[keyEnv]) {
    throw new ConfigFileError(`${source}: stateKeyEnv: environment variable ${keyEnv} is not set`);
  }
  const host = v.host ?? file?.host ?? D.DEFAULT_HOST;
  if (v.dashboard && v.stdio) throw new ConfigError('--dashboard is served on the HTTP listener: it does not apply with --stdio');
  if (v.dashboard && !isLoopback(host)) {
    throw new ConfigError(`--dashboard has no authentication yet, so it is served on a loopback --host only (127.0.0.0/8, localhost or ::1), not on '${host}'`);
  }
  if (!v.stdio) checkExposure(host, upstreams, v['insecure-no-auth'] ?? false);
  return {
    stdio: v.stdio ?? false,
    dashboard: v.dashboard ?? false,
    legacyClients: legacyClients(v['legacy-clients'] ?? file?.legacyClients),
    host,
    port: integer('--port', v.port, file?.port ?? D.DEFAULT_PORT, 0, 65535),
    stateKey:
      v['state-key-file'] !== undefined
        ? { ...stateKeysFromFile(readKeyFile(v['state-key-file'])), from: { file: v['state-key-file'] } }
        : stateKeys(v['state-key'], env[keyEnv], keyEnv),
    logLevel: logLevel(v['log-level'] ?? file?.logLevel),
    ...logFormat(v['log-format'], env, file?.logFormat),
    ...advertiseUrl(v['advertise-url']),
    ...stateStore(v['state-store'] ?? file?.stateStore, v['state-store'] !== undefined ? '--state-store' : `${source}: stateStore`),
    ...metricsPort(v['metrics-port'], file?.metricsPort),
    accessLog: onOff('--access-log', v['access-log'] ?? file?.accessLog ?? D.DEFAULT_ACCESS_LOG),
    fastLane: onOff('--fast-lane', v['fast-lane'] ?? file?.fastLane ?? D.DEFAULT_FAST_LANE),
    tracing: tracing(env),
    upstreams,
    defaultUpstream,
    ...auditConfig(v, file),
    http: resolveHttpFront(v, file, upstreams, env),
    ...(v.config === undefined ? {} : { configFile: v.config }),
  };
}

/** --audit FILE (or `audit: {file}`); the size and content flags need a file to apply to. */
function auditConfig(v: Values, file: FileConfig | undefined): { audit?: AuditConfig } {
  const path = v.audit ?? file?.audit?.file;
  if (path === undefined) {
    if (v['audit-max-bytes'] !== undefined) throw new ConfigError('--audit-max-bytes needs --audit FILE');
    if (v['audit-content']) throw new ConfigError('--audit-content needs --audit FILE');
    if (v['audit-questions']) throw new ConfigError('--audit-questions needs --audit FILE');
    return {};
  }
  if (path === '') throw new ConfigError('--audit: empty file name');
  const maxBytes = integer('--audit-max-bytes', v['audit-max-bytes'], file?.audit?.maxBytes ?? D.DEFAULT_AUDIT_MAX_BYTES, 1024, Number.MAX_SAFE_INTEGER);
  return {
    audit: {
      file: path,
      maxBytes,
      content: v['audit-content'] ?? file?.audit?.content ?? false,
      questions: v['audit-questions'] ?? file?.audit?.questions ?? false,
    },
  };
}

/** Limit flags given on the command line override the file for every upstream. */
function flagLimits(v: Values, base: UpstreamLimits): UpstreamLimits {
  // Every row is picked: base already holds the defaults, so the kind passed on is never read.
  return buildLimits((r) => integer(r.flag, v[r.option], base[r.field] / scaleOf(r), r.min, r.max) * scaleOf(r), 'stdio');
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
    ...sessionScopeOption(v['session-scope']),
    ...(flagTarget && u.name === file.defaultUpstream ? { target: flagTarget } : {}),
    ...(v.root && u.name === file.defaultUpstream ? { roots: v.root.map(rootFromFlag) } : {}),
  }));
}

function upstreamTarget(v: Values, command: readonly string[], optional: boolean): UpstreamTarget | undefined {
  const url = v.upstream;
  if (url !== undefined && command.length > 0) {
    throw new ConfigError('give either --upstream URL or -- COMMAND, not both');
  }
  if (v['upstream-transport'] !== undefined && url === undefined) throw new ConfigError('--upstream-transport: applies to --upstream URL');
  if (v.cwd !== undefined && command.length === 0) throw new ConfigError('--cwd: applies to the legacy server the proxy starts (-- COMMAND)');
  if (url !== undefined) return networkTarget(url, v['upstream-transport']);
  const [cmd, ...args] = command;
  if (cmd === undefined || cmd === '') {
    if (optional) return undefined;
    throw new ConfigError('no legacy server: give --upstream URL, -- COMMAND [ARGS...] or --config FILE');
  }
  if (v.cwd === '') throw new ConfigError('--cwd: empty directory name');
  return { kind: 'stdio', command: cmd, args, ...(v.cwd === undefined ? {} : { cwd: v.cwd }) };
}

/** The names --upstream-transport takes, the desktop clients' spellings included. */
const TRANSPORTS: Readonly<Record<string, 'http' | 'sse' | 'websocket'>> = {
  http: 'http',
  'streamable-http': 'http',
  sse: 'sse',
  websocket: 'websocket',
  ws: 'websocket',
};

/** --upstream URL: Streamable HTTP for http(s), WebSocket for ws(s), unless --upstream-transport says otherwise. */
function networkTarget(url: string, transport: string | undefined): UpstreamTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`--upstream: '${url}' is not a URL`);
  }
  const web = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  const socket = parsed.protocol === 'ws:' || parsed.protocol === 'wss:';
  if (!web && !socket) throw new ConfigError(`--upstream: only http, https, ws and wss URLs are supported, got '${parsed.protocol}'`);
  const kind = transport === undefined ? (socket ? 'websocket' : 'http') : TRANSPORTS[transport];
  if (kind === undefined) throw new ConfigError(`--upstream-transport: expected http (or streamable-http), sse or websocket (or ws), got '${transport}'`);
  if (socket !== (kind === 'websocket')) {
    throw new ConfigError(
      `--upstream-transport ${transport}: needs ${kind === 'websocket' ? 'a ws:// or wss://' : 'an http:// or https://'} URL, got '${parsed.protocol}'`,
    );
  }
  return { kind, url: parsed, headers: {} };
}

/** --pass-environment: every stdio child gets the proxy's environment (but for its secrets) under its own `env`. */
function passEnvironment(upstreams: UpstreamConfig[], passed: Record<string, string>): void {
  if (!upstreams.some((u) => u.target.kind === 'stdio')) throw new ConfigError('--pass-environment: applies to legacy servers the proxy starts over stdio');
  for (const u of upstreams) {
    if (u.target.kind === 'stdio') u.target = { ...u.target, env: { ...passed, ...u.target.env } };
  }
}

/** `--env` adds to the default upstream's child environment; only a stdio child has one. */
function addFlagEnv(upstreams: UpstreamConfig[], defaultUpstream: string | undefined, add: Record<string, string>): void {
  const u = upstreams.find((x) => x.name === defaultUpstream);
  if (u?.target.kind !== 'stdio')
    throw new ConfigError('--env: applies to a legacy server the proxy starts over stdio (-- COMMAND, or stdio: for the default upstream)');
  u.target = { ...u.target, env: { ...u.target.env, ...add } };
}

/** `--child-user` runs every stdio legacy server as that user, over the file's `user:`. */
function setChildUser(upstreams: UpstreamConfig[], user: ChildUser): void {
  const stdio = upstreams.filter((u) => u.target.kind === 'stdio');
  if (stdio.length === 0)
    throw new ConfigError('--child-user: applies to legacy servers the proxy starts over stdio (-- COMMAND, or stdio: in the file), and none is');
  for (const u of stdio) u.target = { ...(u.target as Extract<UpstreamTarget, { kind: 'stdio' }>), user };
}

function rootFromFlag(raw: string): Root {
  // --root URI or --root URI=NAME
  const eq = raw.indexOf('=');
  const uri = eq === -1 ? raw : raw.slice(0, eq);
  const name = eq === -1 ? undefined : raw.slice(eq + 1);
  if (!uri.startsWith('file://')) throw new ConfigError(`--root: '${uri}' must be a file:// URI`);
  return name ? { uri, name } : { uri };
}

function suspendMode(raw: string | undefined): SuspendMode | undefined {
  if (raw === undefined) return undefined;
  if (raw !== 'auto' && raw !== 'hold' && raw !== 'replay') throw new ConfigError(`--suspend: expected auto, hold or replay, got '${raw}'`);
  return raw;
}

function sessionScopeOption(raw: string | undefined): { sessionScope?: SessionScope } {
  if (raw === undefined) return {};
  if (raw !== 'principal' && raw !== 'shared') throw new ConfigError(`--session-scope: expected principal or shared, got '${raw}'`);
  return { sessionScope: raw };
}

function legacyClients(raw: string | undefined): LegacyClients {
  if (raw === undefined) return D.DEFAULT_LEGACY_CLIENTS;
  if (raw !== 'pass' && raw !== 'reject') throw new ConfigError(`--legacy-clients: expected pass or reject, got '${raw}'`);
  return raw;
}

function metricsPort(raw: string | undefined, fromFile: number | undefined): { metricsPort?: number } {
  const port = raw === undefined ? fromFile : integer('--metrics-port', raw, 0, 0, 65535);
  return port === undefined ? {} : { metricsPort: port };
}

function onOff(flag: string, raw: string): boolean {
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`${flag}: expected on or off, got '${raw}'`);
  return raw === 'on';
}

function tracing(env: Record<string, string | undefined>): ProxyConfig['tracing'] {
  try {
    return tracingPlan(env);
  } catch (err) {
    if (err instanceof TracingEnvError) throw new ConfigError(err.message);
    throw err;
  }
}

/** `raw` as a whole number from `min` to `max`; `fallback` when the option was not given. */
export function integer(flag: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) throw new ConfigError(`${flag}: expected a whole number, got '${raw}'`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${flag}: ${n} is out of range (${min} to ${max})`);
  return n;
}
