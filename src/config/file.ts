// The configuration file (YAML): several upstreams, each with its transport, era, headers, limits
// and roots. Validated with a schema at load; every problem is reported with the field's path.
// Secrets stay in the environment: the file names variables, and values are never echoed.
// Relative stdio `cwd` resolves against the file's directory, which is also the default `cwd`, so
// relative `args` mean the same wherever the proxy is started.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../protocol/errors.js';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../telemetry/log-levels.js';
import { interpolateEnv } from './interpolate.js';
import { formatOf, fromDesktopFormat } from './desktop-format.js';
import { mergeClientAuth, OAUTH_SCOPE } from './client-auth.js';
import { ConfigFileError, limits, withClientAuth, type ConfigSource, type FileConfig } from './file-config.js';
import { type ChildUser, parseChildUser, systemUserDatabase } from './child-user.js';
import { envFromFile, passedEnvironment, secretNames, withheldNames } from './child-env.js';
import { resolveShadow, shadowProblem, shadowSchema } from './shadow.js';
import { type CutoverConfig, cutoverProblems, cutoverSchema, resolveCutover } from './cutover.js';
import { resolveHeaders, upstreamOAuth } from './upstream-credentials.js';
import { LIMIT_ROWS, type LimitKey } from './limits.js';
import { issueLines } from './schema-issues.js';
import type { Era, HostedTasksConfig, Root, SuspendMode, UpstreamTarget } from './types.js';

export { ConfigFileError, limits, withClientAuth, type ConfigSource, type FileConfig } from './file-config.js';

/** The limits' fields, from the table in limits.ts, in its order. */
const LIMIT_FIELDS = Object.fromEntries(LIMIT_ROWS.map((r) => [r.key, z.number().int().min(r.min).max(r.max).optional()])) as {
  [K in LimitKey]: z.ZodOptional<z.ZodNumber>;
};
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });
/** `clientAuth:` in the file, at the top level and in each upstream (client-auth.ts merges it). */
const clientAuthSchema = z.strictObject({
  issuer: httpUrl.optional(),
  audience: z.string().min(1).optional(),
  scopes: z.array(z.string().regex(OAUTH_SCOPE, 'is not a valid OAuth scope')).optional(),
  introspectionUrl: httpUrl.optional(),
});
const wsUrl = z.url({ protocol: /^wss?$/, error: 'must be a ws:// or wss:// URL' });
/** A header value: literal, or taken from an environment variable (with an optional prefix). */
const headerValue = z.union([z.string(), z.strictObject({ env: z.string().min(1), prefix: z.string().optional() })]);
const toolNames = z.array(z.string().min(1));
const suspendMode = z.enum(['auto', 'hold', 'replay']);
/** `suspend: hold` is short for `suspend: { default: hold }`. */
const suspend = z.union([
  suspendMode.transform((mode): { default?: SuspendMode; replay?: string[]; hold?: string[] } => ({ default: mode })),
  z.strictObject({ default: suspendMode.optional(), replay: toolNames.optional(), hold: toolNames.optional() }),
]);
/** `http: URL` (and sse, websocket) is short for `http: { url: URL }`. */
const endpoint = (url: typeof httpUrl) => z.union([url.transform((u) => ({ url: u })), z.strictObject({ url })]);
/** Seconds: how long a proxy-hosted task lives, and how often its client polls. */
const hostedTasks = z.strictObject({
  tools: toolNames.optional(),
  required: toolNames.optional(),
  ttl: z
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .optional(),
  pollInterval: z.number().min(0.1).max(3600).optional(),
  after: z.number().min(0).max(86_400).optional(),
});
const root = z.strictObject({ uri: z.string().startsWith('file://', 'must be a file:// URI'), name: z.string().optional() });

const upstreamSchema = z
  .strictObject({
    era: z.enum(['legacy', 'modern', 'auto']).optional(),
    stdio: z
      .strictObject({
        command: z.string().min(1),
        args: z.array(z.string()).optional(),
        // A literal value, or `{ env: NAME }`: the proxy's variable NAME.
        env: z.record(z.string(), z.union([z.string(), z.strictObject({ env: z.string().min(1) })])).optional(),
        cwd: z.string().optional(),
        // USER[:GROUP]: run the server as this user (the proxy runs as root; config/child-user.ts).
        user: z.string().min(1).optional(),
        // The proxy's whole environment, but for its secrets (child-env.ts's passedEnvironment).
        passEnvironment: z.boolean().optional(),
      })
      .optional(),
    http: endpoint(httpUrl).optional(),
    sse: endpoint(httpUrl).optional(),
    websocket: endpoint(wsUrl).optional(),
    headers: z.record(z.string().regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, 'is not a valid header name'), headerValue).optional(),
    roots: z.array(root).optional(),
    suspend: suspend.optional(),
    sessionScope: z.enum(['principal', 'shared']).optional(),
    // Tools the proxy runs as tasks of its own for clients that declare the tasks extension (docs/tasks.md).
    tasks: hostedTasks.optional(),
    clientAuth: clientAuthSchema.optional(),
    // Also send some requests to a migrated 2026-07-28 server and compare (docs/migration.md, "Shadow comparison").
    shadow: shadowSchema.optional(),
    // Items already served by the migrated 2026-07-28 server (docs/migration.md, "Moving items one at a time").
    cutover: cutoverSchema.optional(),
    auth: z
      .strictObject({
        tokenUrl: httpUrl,
        clientId: z.string().min(1),
        clientSecretEnv: z.string().min(1),
        scope: z.string().min(1).optional(),
        resource: z.string().min(1).optional(),
      })
      .optional(),
    ...LIMIT_FIELDS,
  })
  .superRefine((u, ctx) => {
    const kinds = (['stdio', 'http', 'sse', 'websocket'] as const).filter((k) => u[k] !== undefined);
    if (kinds.length !== 1)
      ctx.addIssue({
        code: 'custom',
        message: `needs exactly one transport (stdio, http, sse or websocket), got ${kinds.length ? kinds.join(' and ') : 'none'}`,
      });
    const both = (u.suspend?.replay ?? []).filter((t) => u.suspend?.hold?.includes(t));
    if (both.length) ctx.addIssue({ code: 'custom', path: ['suspend'], message: `'${both[0]}' is in both replay and hold` });
    if (u.stdio && u.headers) ctx.addIssue({ code: 'custom', path: ['headers'], message: 'only applies to network transports' });
    if (u.auth && !u.http) ctx.addIssue({ code: 'custom', path: ['auth'], message: 'client credentials are supported for http upstreams only' });
    if (u.tasks && (u.tasks.tools ?? []).length + (u.tasks.required ?? []).length === 0)
      ctx.addIssue({ code: 'custom', path: ['tasks'], message: 'names no tool (tools: or required:)' });
    const twice = (u.tasks?.tools ?? []).find((t) => u.tasks?.required?.includes(t));
    if (twice !== undefined) ctx.addIssue({ code: 'custom', path: ['tasks'], message: `'${twice}' is in both tools and required` });
    if (u.era === 'modern' && u.tasks)
      ctx.addIssue({ code: 'custom', path: ['tasks'], message: 'only applies to legacy upstreams; a 2026-07-28 server runs its own tasks' });
    if (u.era === 'modern' && (u.sse || u.websocket))
      ctx.addIssue({ code: 'custom', path: ['era'], message: 'sse and websocket exist only in legacy revisions; modern upstreams use http or stdio' });
  });

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** The configuration file (test/unit/config-docs.test.ts: config/proxy.yaml shows every key). */
export const FILE_SCHEMA = z
  .strictObject({
    listen: z
      .strictObject({
        host: z.string().min(1).optional(),
        port: z.number().int().min(0).max(65535).optional(),
        metricsPort: z.number().int().min(0).max(65535).optional(),
      })
      .optional(),
    accessLog: z.enum(['on', 'off']).optional(),
    fastLane: z.enum(['on', 'off']).optional(),
    legacyClients: z.enum(['pass', 'reject']).optional(),
    logLevel: z.enum(LOG_LEVELS as [LogLevel, ...LogLevel[]]).optional(),
    logFormat: z.enum(LOG_FORMATS as [LogFormat, ...LogFormat[]]).optional(),
    stateKeyEnv: z.string().min(1).optional(),
    stateStore: z.string().min(1).optional(),
    // `audit: FILE` is short for `audit: { file: FILE }`.
    audit: z
      .union([
        z
          .string()
          .min(1)
          .transform((file): { file: string; maxBytes?: number; content?: boolean; questions?: boolean } => ({ file })),
        z.strictObject({
          file: z.string().min(1),
          maxBytes: z.number().int().min(1024).optional(),
          content: z.boolean().optional(),
          questions: z.boolean().optional(),
        }),
      ])
      .optional(),
    clientAuth: clientAuthSchema.optional(),
    resourceUrl: httpUrl.optional(),
    default: z.string().optional(),
    defaults: z.strictObject(LIMIT_FIELDS).optional(),
    upstreams: z.record(z.string().regex(NAME, 'upstream names are letters, digits, - and _ (used in /servers/NAME/mcp)'), upstreamSchema),
  })
  .superRefine((f, ctx) => {
    if (Object.keys(f.upstreams).length === 0) ctx.addIssue({ code: 'custom', path: ['upstreams'], message: 'names no upstream' });
    if (f.default !== undefined && !(f.default in f.upstreams))
      ctx.addIssue({ code: 'custom', path: ['default'], message: `'${f.default}' is not one of the upstreams` });
    for (const [name, u] of Object.entries(f.upstreams)) {
      const problem = u.shadow && shadowProblem(name, u.shadow, u.era, f.upstreams);
      if (problem) ctx.addIssue({ code: 'custom', path: ['upstreams', name, 'shadow', 'upstream'], message: problem });
      for (const p of u.cutover ? cutoverProblems(name, u.cutover, u.era, f.upstreams, u.shadow?.tools ?? []) : [])
        ctx.addIssue({ code: 'custom', path: ['upstreams', name, ...p.path], message: p.message });
    }
  });

export type FileShape = z.infer<typeof FILE_SCHEMA>;
/** The configuration object the YAML file describes, as a library caller writes it. */
export type ConfigObject = z.input<typeof FILE_SCHEMA>;

/** The YAML parser, loaded only when a configuration file is read (it costs start-up time otherwise). */
function parseYaml(text: string): unknown {
  const yaml = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yaml.parse(text);
}

export function loadConfigFile(path: string, env: Record<string, string | undefined>): FileConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigFileError(`${path}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new ConfigFileError(`${path}: not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const keyEnv = (raw as { stateKeyEnv?: unknown } | null)?.stateKeyEnv;
  const { value, problems, variables } = interpolateEnv(raw ?? {}, env, secretNames(typeof keyEnv === 'string' ? keyEnv : undefined));
  // A variable written into a header or client credentials is a secret: --pass-environment withholds it.
  const credentials = variables.filter((v) => v.path.includes('headers') || v.path.includes('auth')).map((v) => v.name);
  const format = formatOf(value);
  const mapped = format === 'native' ? { value, problems: [] } : fromDesktopFormat(value as Record<string, unknown>, format);
  // A server that could not be mapped is left out: the native checks would only echo that.
  if (mapped.problems.length > 0) throw new ConfigFileError([...problems, ...mapped.problems].map((p) => `${path}: ${p}`).join('\n'));
  return validateConfig(mapped.value, env, { source: path, baseDir: dirname(resolve(path)) }, problems, credentials);
}

/**
 * Validates a configuration object (the parsed file, or a library caller's object) and resolves it.
 * Every problem is reported at once, one `SOURCE: field: message` line each.
 */
export function validateConfig(
  raw: unknown,
  env: Record<string, string | undefined>,
  from: ConfigSource,
  earlier: readonly string[] = [],
  credentials: readonly string[] = [],
): FileConfig {
  const problems = [...earlier];
  const parsed = FILE_SCHEMA.safeParse(raw ?? {});
  if (!parsed.success) problems.push(...issueLines(parsed.error.issues, FILE_SCHEMA));
  const config = parsed.success ? fromFile(parsed.data, env, from, problems, credentials) : undefined;
  if (problems.length > 0 || !config) throw new ConfigFileError(problems.map((p) => `${from.source}: ${p}`).join('\n'));
  return config;
}

function fromFile(f: FileShape, env: Record<string, string | undefined>, from: ConfigSource, problems: string[], interpolated: readonly string[]): FileConfig {
  const names = Object.keys(f.upstreams);
  const secrets = secretNames(f.stateKeyEnv);
  const credentialEnv = [...interpolated, ...Object.values(f.upstreams).flatMap(credentialVariables)];
  const withheld = withheldNames(f.stateKeyEnv, credentialEnv);
  const targets = new Map(
    Object.entries(f.upstreams).map(([name, u]) => [name, target(u, env, `upstreams.${name}`, from.baseDir, { secrets, withheld }, problems)]),
  );
  return {
    credentialEnv,
    ...(f.listen?.host === undefined ? {} : { host: f.listen.host }),
    ...(f.listen?.port === undefined ? {} : { port: f.listen.port }),
    ...(f.listen?.metricsPort === undefined ? {} : { metricsPort: f.listen.metricsPort }),
    ...(f.accessLog === undefined ? {} : { accessLog: f.accessLog }),
    ...(f.fastLane === undefined ? {} : { fastLane: f.fastLane }),
    ...(f.legacyClients === undefined ? {} : { legacyClients: f.legacyClients }),
    ...(f.logLevel === undefined ? {} : { logLevel: f.logLevel }),
    ...(f.logFormat === undefined ? {} : { logFormat: f.logFormat }),
    ...(f.stateKeyEnv === undefined ? {} : { stateKeyEnv: f.stateKeyEnv }),
    ...(f.stateStore === undefined ? {} : { stateStore: f.stateStore }),
    ...(f.audit === undefined
      ? {}
      : { audit: { file: f.audit.file, ...stripUndefined({ maxBytes: f.audit.maxBytes, content: f.audit.content, questions: f.audit.questions }) } }),
    ...(f.resourceUrl === undefined ? {} : { resourceUrl: f.resourceUrl }),
    ...(f.clientAuth === undefined ? {} : { clientAuth: f.clientAuth }),
    upstreamClientAuth: Object.fromEntries(Object.entries(f.upstreams).map(([name, u]) => [name, u.clientAuth])),
    // A single upstream is the default one even when the file does not say so.
    ...(f.default !== undefined ? { defaultUpstream: f.default } : names.length === 1 ? { defaultUpstream: names[0]! } : {}),
    upstreams: Object.entries(f.upstreams).map(([name, u]) => ({
      name,
      era: (u.era ?? 'legacy') as Era,
      target: targets.get(name)!,
      roots: (u.roots ?? []).map((r) => (r.name === undefined ? { uri: r.uri } : { uri: r.uri, name: r.name })) as Root[],
      suspend: { default: u.suspend?.default ?? 'auto', replay: u.suspend?.replay ?? [], hold: u.suspend?.hold ?? [] },
      ...(u.sessionScope ? { sessionScope: u.sessionScope } : {}),
      ...(u.tasks ? { tasks: hostedTasksConfig(u.tasks) } : {}),
      ...limits({ ...f.defaults, ...stripUndefined(u) }, u.stdio === undefined ? 'network' : 'stdio'),
      ...withClientAuth(collect(problems, undefined, () => mergeClientAuth([f.clientAuth, u.clientAuth], `upstreams.${name}.clientAuth`))),
      ...(u.shadow ? { shadow: resolveShadow(u.shadow) } : {}),
      ...cutoverOf(u, targets),
    })),
  };
}

/** The cutover with its migrated server's transport (the schema made sure it is another upstream's http). */
function cutoverOf(u: UpstreamShape, targets: ReadonlyMap<string, UpstreamTarget>): { cutover?: CutoverConfig } {
  const migrated = u.cutover ? targets.get(u.cutover.upstream) : undefined;
  return u.cutover && migrated?.kind === 'http' ? { cutover: resolveCutover(u.cutover, migrated) } : {};
}

/** Defaults: a task at once, which lives an hour, and whose client polls every second. */
function hostedTasksConfig(t: z.infer<typeof hostedTasks>): HostedTasksConfig {
  return {
    tools: t.tools ?? [],
    required: t.required ?? [],
    ttlMs: (t.ttl ?? 3600) * 1000,
    pollIntervalMs: Math.round((t.pollInterval ?? 1) * 1000),
    afterMs: Math.round((t.after ?? 0) * 1000),
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

type UpstreamShape = z.infer<typeof upstreamSchema>;

/** The variables an upstream reads its headers and client secret from. */
function credentialVariables(u: UpstreamShape): string[] {
  const fromHeaders = Object.values(u.headers ?? {}).flatMap((h) => (typeof h === 'string' ? [] : [h.env]));
  return [...fromHeaders, ...(u.auth ? [u.auth.clientSecretEnv] : [])];
}

function target(
  u: UpstreamShape,
  env: Record<string, string | undefined>,
  where: string,
  baseDir: string,
  names: { secrets: ReadonlySet<string>; withheld: ReadonlySet<string> },
  problems: string[],
): UpstreamTarget {
  if (u.stdio) {
    const passed = u.stdio.passEnvironment ? passedEnvironment(env, names.withheld) : {};
    const own = u.stdio.env ? collect(problems, {}, () => envFromFile(u.stdio!.env!, env, `${where}.stdio.env`, names.secrets)) : undefined;
    return {
      kind: 'stdio',
      command: u.stdio.command,
      args: u.stdio.args ?? [],
      ...(own || u.stdio.passEnvironment ? { env: { ...passed, ...own } } : {}),
      cwd: resolve(baseDir, u.stdio.cwd ?? '.'),
      ...(u.stdio.user === undefined ? {} : childUser(problems, u.stdio.user, `${where}.stdio.user`)),
    };
  }
  const headers = resolveHeaders(u.headers ?? {}, env, where, problems);
  if (u.http) return { kind: 'http', url: new URL(u.http.url), headers, ...collect(problems, {}, () => upstreamOAuth(u.auth, env, where)) };
  if (u.sse) return { kind: 'sse', url: new URL(u.sse.url), headers };
  return { kind: 'websocket', url: new URL(u.websocket!.url), headers };
}

function childUser(problems: string[], spec: string, where: string): { user?: ChildUser } {
  const user = collect(problems, undefined, () => parseChildUser(spec, where, systemUserDatabase()));
  return user === undefined ? {} : { user };
}

/** Runs a check that throws ConfigError; its problem is collected and `fallback` stands in. */
function collect<T>(problems: string[], fallback: T, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.push(err.message);
    return fallback;
  }
}
