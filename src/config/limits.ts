// The one table of per-upstream limits: file key, flag, unit, range, default, resolved field, help.
// The file schema, the limit flags, the defaults, UpstreamLimits and the --help rows derive from it.

/** seconds and ms resolve to a `...Ms` field in milliseconds; count and bytes resolve as given. */
export type LimitUnit = 'seconds' | 'ms' | 'count' | 'bytes';

export type LimitSpec = {
  /** The command-line flag, `--` included. */
  flag: `--${string}`;
  min: number;
  max: number;
  /** In the row's unit (seconds for `seconds`). */
  default: number;
  /** The --help description. A `\n` marks where --help wraps it; the `(default N)` is appended. */
  help: string;
  /** The default for a stdio upstream, where it differs (each stdio session is a process). */
  stdioDefault?: number;
} & ({ unit: 'seconds' | 'ms'; field: `${string}Ms` } | { unit: 'count' | 'bytes'; field: string });

/**
 * Keyed by the configuration file's key (in `defaults:` and in each upstream). The order is the
 * order of the --help rows and of the file schema's fields. Adding a row here is the whole code
 * change for a new limit; the README's option table and config/proxy.yaml document it
 * (test/unit/limits.test.ts checks both).
 */
export const LIMITS = {
  interactionTtl: {
    flag: '--interaction-ttl',
    unit: 'seconds',
    min: 1,
    max: 86_400,
    default: 600,
    field: 'interactionTtlMs',
    help: 'end a suspended interaction nobody resumes within SECS',
  },
  maxSessions: {
    flag: '--max-sessions',
    unit: 'count',
    min: 1,
    max: 100_000,
    default: 256,
    stdioDefault: 16,
    field: 'maxSessions',
    help: 'legacy sessions open at once, across capability sets; size it to the\nlegacy server: each stdio session is a process, an HTTP one a socket',
  },
  spareSessions: {
    flag: '--spare-sessions',
    unit: 'count',
    min: 0,
    max: 100,
    default: 1,
    field: 'spareSessions',
    help: 'idle legacy sessions kept started per capability set in use, so an\ninteractive call does not wait for a legacy start-up',
  },
  callsPerSession: {
    flag: '--calls-per-session',
    unit: 'count',
    min: 1,
    max: 100_000,
    default: 256,
    field: 'callsPerSession',
    help: 'calls one shared legacy session carries before another is started\n(pass-through calls, and interactive calls whose requests can be attributed)',
  },
  waitingShare: {
    flag: '--waiting-share',
    unit: 'count',
    min: 1,
    max: 100,
    default: 75,
    field: 'waitingSharePercent',
    help: 'percent of --max-sessions that interactions waiting for a client may\noccupy (at least one; a waiting call on a shared session counts\n1/--calls-per-session); the rest stays free for other calls',
  },
  sessionWait: {
    flag: '--session-wait',
    unit: 'seconds',
    min: 0,
    max: 3600,
    default: 30,
    field: 'sessionWaitMs',
    help: 'how long a request waits for a free legacy session',
  },
  callTimeout: {
    flag: '--call-timeout',
    unit: 'seconds',
    min: 1,
    max: 86_400,
    default: 600,
    field: 'callTimeoutMs',
    help: 'how long a request waits on the legacy server between rounds\nbefore the call is cancelled',
  },
  gatherWindowMs: {
    flag: '--gather-window',
    unit: 'ms',
    min: 0,
    max: 10_000,
    default: 25,
    field: 'gatherWindowMs',
    help: 'legacy requests arriving within MS of the first go out in one\ninput_required',
  },
  idleSessionTtl: {
    flag: '--idle-session-ttl',
    unit: 'seconds',
    min: 1,
    max: 86_400,
    default: 300,
    field: 'idleSessionTtlMs',
    help: "close pooled legacy sessions, and legacy clients' sessions with no\nopen request or stream, idle this long",
  },
  maxStateBytes: {
    flag: '--max-state-bytes',
    unit: 'count',
    min: 1024,
    max: 65_536,
    default: 16_384,
    field: 'maxStateBytes',
    help: 'largest requestState a replayed call may carry; a call whose record\nwould be larger continues in hold mode',
  },
  connectTimeout: {
    flag: '--connect-timeout',
    unit: 'seconds',
    min: 1,
    max: 3600,
    default: 30,
    field: 'connectTimeoutMs',
    help: 'limit for starting and initializing a legacy session',
  },
  drainTimeout: {
    flag: '--drain-timeout',
    unit: 'seconds',
    min: 0,
    max: 3600,
    default: 30,
    field: 'drainTimeoutMs',
    help: 'on SIGTERM, how long running requests may take to finish before\nthe proxy closes (new requests get 503 meanwhile)',
  },
  maxInteractionsPerPrincipal: {
    flag: '--max-interactions-per-principal',
    unit: 'count',
    min: 1,
    max: 100_000,
    default: 64,
    field: 'maxInteractionsPerPrincipal',
    help: 'interactive calls one principal may have waiting for input at once',
  },
  maxCallsPerPrincipal: {
    flag: '--max-calls-per-principal',
    unit: 'count',
    min: 1,
    max: 100_000,
    default: 32,
    field: 'maxCallsPerPrincipal',
    help: 'interactive calls (and retries) and tasks one principal may have running at once',
  },
  bodyTimeout: {
    flag: '--body-timeout',
    unit: 'seconds',
    min: 1,
    max: 3600,
    default: 30,
    field: 'bodyTimeoutMs',
    help: 'a request body not complete within SECS of its headers gets 408 and\nits connection is closed; a call is not timed once its body is read',
  },
  maxInflightBytes: {
    flag: '--max-inflight-bytes',
    unit: 'bytes',
    min: 1,
    max: 1_099_511_627_776,
    default: 67_108_864,
    field: 'maxInflightBytes',
    help: 'bytes of request bodies received and not yet answered, per\nupstream; a body beyond it gets 503',
  },
  maxTaskResultBytes: {
    flag: '--max-task-result-bytes',
    unit: 'bytes',
    min: 1024,
    max: 3_145_728,
    default: 2_097_152,
    field: 'maxTaskResultBytes',
    help: 'largest result a task keeps (as JSON, at most 3 MiB); a task whose\nresult is larger ends failed, saying so',
  },
  maxFinishedTasks: {
    flag: '--max-finished-tasks',
    unit: 'count',
    min: 1,
    max: 100_000,
    default: 64,
    field: 'maxFinishedTasks',
    help: 'finished tasks kept per principal (anonymous included) until their ttl;\npast it the oldest is dropped',
  },
  maxFinishedTaskBytes: {
    flag: '--max-finished-task-bytes',
    unit: 'bytes',
    min: 1024,
    max: 1_099_511_627_776,
    default: 33_554_432,
    field: 'maxFinishedTaskBytes',
    help: "bytes of finished tasks' results kept per principal; past it the\noldest finished task is dropped",
  },
} as const satisfies Record<string, LimitSpec>;

type Table = typeof LIMITS;
/** A configuration-file key: `interactionTtl`, `maxSessions`, ... */
export type LimitKey = keyof Table;
/** A parseArgs option name: `interaction-ttl`, `max-sessions`, ... */
export type LimitOption = { [K in LimitKey]: Table[K]['flag'] extends `--${infer N}` ? N : never }[LimitKey];
/** The resolved limits of one upstream, in milliseconds or counts: what `UpstreamLimits` is. */
export type LimitValues = { -readonly [K in LimitKey as Table[K]['field']]: number };
/** What a file or flag gives, in the rows' units. */
export type LimitInputs = { [K in LimitKey]?: number | undefined };

export interface LimitRow {
  key: LimitKey;
  /** The parseArgs option name (the flag without `--`). */
  option: LimitOption;
  flag: string;
  unit: LimitUnit;
  min: number;
  max: number;
  default: number;
  stdioDefault?: number;
  field: keyof LimitValues;
  help: string;
}

/** The table as rows, in order. */
export const LIMIT_ROWS: readonly LimitRow[] = (Object.keys(LIMITS) as LimitKey[]).map((key) => {
  const spec: LimitSpec = LIMITS[key];
  return { ...spec, key, option: spec.flag.slice(2) as LimitOption, field: spec.field as keyof LimitValues };
});

/** The factor from the row's unit to its resolved field. */
export function scaleOf(row: Pick<LimitRow, 'unit'>): number {
  return row.unit === 'seconds' ? 1000 : 1;
}

/** The metavariable --help shows after the flag. */
export function metavarOf(row: Pick<LimitRow, 'unit'>): string {
  // N for bytes as well: BYTES would not fit the --help column after --max-inflight-bytes.
  return row.unit === 'seconds' ? 'SECS' : row.unit === 'ms' ? 'MS' : 'N';
}

/** A row's default for an upstream whose target is of `kind` (stdio, http, sse, websocket), in the row's unit. */
export function defaultFor(row: Pick<LimitRow, 'default' | 'stdioDefault'>, kind: string): number {
  return kind === 'stdio' ? (row.stdioDefault ?? row.default) : row.default;
}

/** Resolved limits from per-row values: `pick` gives a resolved value, or undefined for the default of a `kind` upstream. */
export function buildLimits(pick: (row: LimitRow) => number | undefined, kind: string): LimitValues {
  const out: Partial<Record<keyof LimitValues, number>> = {};
  for (const row of LIMIT_ROWS) out[row.field] = pick(row) ?? defaultFor(row, kind) * scaleOf(row);
  return out as LimitValues;
}
