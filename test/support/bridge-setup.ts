// The bridge under test, wired to a pool of fake sessions and a frozen clock, and the helpers the
// bridge's unit tests share: a front call, the shape of an input_required answer, an error check.
import assert from 'node:assert/strict';
import { Bridge, type FrontCall } from '../../src/bridge/bridge.js';
import { ProxyError } from '../../src/protocol/errors.js';
import type { InteractionObserver } from '../../src/protocol/interaction-observer.js';
import type { JsonObject, Root } from '../../src/protocol/json.js';
import type { RootsBinding } from '../../src/protocol/roots.js';
import type { SuspendMode } from '../../src/bridge/suspend-mode.js';
import type { HostedTaskPolicy } from '../../src/bridge/tasks/hosted-task.js';
import { MemoryLedger } from '../../src/state/ledger.js';
import { createSealer, type Sealer } from '../../src/state/seal.js';
import { createLogger } from '../../src/telemetry/logger.js';
import type { UpstreamTelemetry } from '../../src/telemetry/ports.js';
import { SessionPool, type LeaseMode } from '../../src/upstream/pool/pool.js';
import { testClock } from './clock.js';
import { FakeSession } from './fake-session.js';

const log = createLogger('error');
const KEY = new Uint8Array(32).fill(5);

export interface SetupOptions {
  ttlMs?: number;
  callTimeoutMs?: number;
  gatherMs?: number;
  maxWaiting?: number;
  maxCalls?: number;
  maxInteractions?: number;
  /** The operator's roots (--root). */
  operatorRoots?: Root[];
  /** Runs as each session opens (e.g. to play a server that asks for roots at initialize). */
  onConnect?: () => void;
  maxStateBytes?: number;
  suspend?: SuspendMode;
  telemetry?: UpstreamTelemetry;
  /** How interactive calls are leased (the upstream's leaseModeFor); absent: exclusively. */
  leaseMode?: LeaseMode;
  /** Tools the proxy runs as tasks of its own. */
  tasks?: HostedTaskPolicy;
  /** Who hears each interactive call (the audit, the shadow). */
  observer?: InteractionObserver;
  /** Wraps the sealer (to make it fail). */
  sealer?: (sealer: Sealer) => Sealer;
}

export function setup(opts: SetupOptions = {}) {
  const clock = testClock();
  const sealer = createSealer(KEY, clock.now);
  const ledger = new MemoryLedger(clock);
  const sessions: FakeSession[] = [];
  /** The roots each session was opened to serve (undefined: the operator's). */
  const servedRoots = new Map<FakeSession, RootsBinding>();
  /** Flip to play a legacy server that has asked roots/list outside calls. */
  const upstream = { asksRootsOutsideCalls: false };
  const pool = new SessionPool<FakeSession>({
    maxSessions: 8,
    maxWaiting: opts.maxWaiting ?? 8,
    spareSessions: 0,
    waitMs: 100,
    idleTtlMs: 60_000,
    log,
    clock,
    connect: async (caps, roots) => {
      const s = new FakeSession(caps);
      sessions.push(s);
      servedRoots.set(s, roots);
      opts.onConnect?.();
      return s;
    },
  });
  const bridge = new Bridge({
    sessions: {
      acquire: (caps, mode, roots, prefer) => pool.acquire(caps, mode, roots, prefer as FakeSession | undefined),
      ...(opts.leaseMode ? { leaseModeFor: () => opts.leaseMode! } : {}),
      asksRootsOutsideCalls: () => upstream.asksRootsOutsideCalls,
      operatorRoots: () => opts.operatorRoots ?? [],
      waitingShare: () => ({ max: pool.stats().maxWaiting, room: pool.mayWait('exclusive') }),
    },
    sealer: (opts.sealer ?? ((s) => s))(sealer),
    instance: 'instance-A',
    upstream: 'default',
    ledger,
    limits: {
      interactionTtlMs: opts.ttlMs ?? 60_000,
      gatherWindowMs: opts.gatherMs ?? 5,
      callTimeoutMs: opts.callTimeoutMs ?? 5_000,
      maxStateBytes: opts.maxStateBytes ?? 16_384,
      suspend: { default: opts.suspend ?? 'hold', replay: [], hold: [] },
      maxCallsPerPrincipal: opts.maxCalls ?? 32,
      maxInteractionsPerPrincipal: opts.maxInteractions ?? 64,
      ...(opts.tasks ? { tasks: opts.tasks } : {}),
    },
    log,
    clock,
    ...(opts.telemetry ? { telemetry: opts.telemetry } : {}),
    ...(opts.observer ? { observer: opts.observer } : {}),
  });
  return { bridge, pool, sessions, servedRoots, upstream, clock, ledger, sealer, last: () => sessions.at(-1)! };
}

export interface Sent {
  method: string;
  params: JsonObject;
}

export const frontWith = (o: Partial<FrontCall>) => front(o);

export function front(overrides: Partial<FrontCall> = {}, sent: Sent[] = []): FrontCall {
  return {
    method: 'tools/call',
    params: { name: 'book', arguments: { day: 'mon' } },
    identity: { method: 'tools/call', target: 'book', args: { day: 'mon' } },
    capabilities: { elicitation: {}, sampling: {}, roots: {} },
    principal: 'anonymous',
    sink: { notify: async (n) => void sent.push(n) },
    signal: new AbortController().signal,
    ...overrides,
  };
}

export type Asked = { resultType: string; inputRequests: Record<string, { method: string; params?: JsonObject }>; requestState: string };

export async function expectCode(p: Promise<unknown>, code: string, message?: RegExp): Promise<ProxyError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ProxyError, String(err));
    assert.equal(err.code, code);
    if (message) assert.match(err.message, message);
    return err;
  }
  assert.fail(`expected ProxyError ${code}`);
}
