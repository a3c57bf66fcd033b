import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SessionPool } from '../../src/upstream/pool/pool.js';
import { ProxyError } from '../../src/protocol/errors.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { testClock, type TestClock } from '../support/clock.js';
import { FakeSession, tick } from '../support/fake-session.js';

const log = createLogger('error');

function pool(
  opts: {
    perSession?: number;
    max?: number;
    maxWaiting?: number;
    spares?: number;
    waitMs?: number;
    idleTtlMs?: number;
    clock?: TestClock;
    failConnect?: boolean;
  } = {},
) {
  const started: FakeSession[] = [];
  const p = new SessionPool<FakeSession>({
    maxSessions: opts.max ?? 4,
    ...(opts.perSession ? { callsPerSession: opts.perSession } : {}),
    maxWaiting: opts.maxWaiting ?? opts.max ?? 4,
    spareSessions: opts.spares ?? 0,
    waitMs: opts.waitMs ?? 50,
    idleTtlMs: opts.idleTtlMs ?? 1000,
    log,
    clock: opts.clock ?? testClock(),
    connect: async (caps) => {
      if (opts.failConnect) throw new Error('spawn ENOENT');
      const s = new FakeSession(caps);
      started.push(s);
      return s;
    },
  });
  return { p, started };
}

const ELICIT = { elicitation: { form: {} } } as const;

describe('SessionPool', () => {
  it('gives an exclusive session to one holder at a time and reuses it after release', async () => {
    const { p, started } = pool();
    const a = await p.acquire(ELICIT, 'exclusive');
    const b = await p.acquire(ELICIT, 'exclusive');
    assert.notEqual(a.session, b.session);
    a.release();
    const c = await p.acquire(ELICIT, 'exclusive');
    assert.equal(c.session, a.session);
    assert.equal(started.length, 2);
  });

  it('keeps capability sets apart', async () => {
    const { p } = pool();
    const a = await p.acquire(ELICIT, 'exclusive');
    a.release();
    const b = await p.acquire({}, 'exclusive');
    assert.notEqual(b.session, a.session);
  });

  it('shares a session for non-interactive methods but never one held exclusively', async () => {
    const { p, started } = pool();
    const held = await p.acquire({}, 'exclusive');
    const s1 = await p.acquire({}, 'shared');
    const s2 = await p.acquire({}, 'shared');
    assert.notEqual(s1.session, held.session);
    assert.equal(s1.session, s2.session);
    assert.equal(started.length, 2);
    assert.deepEqual([p.stats().sessions, p.stats().held, p.stats().shared], [2, 1, 1]);
  });

  it('starts one session per --calls-per-session shared leases asked at once, and packs later ones', async () => {
    const { p, started } = pool({ perSession: 2 });
    const leases = await Promise.all(Array.from({ length: 5 }, () => p.acquire({}, 'shared')));
    assert.equal(started.length, 3, 'leases asked while a session starts join it');
    assert.equal(new Set(leases.map((l) => l.session)).size, 3);
    assert.equal(p.stats().sharedCalls, 5);
    leases[0]!.release();
    const next = await p.acquire({}, 'shared');
    assert.equal(next.session, leases[0]!.session, 'the session with room takes it');
    assert.equal(started.length, 3);
  });

  it('fails a bounded wait with a clear error when the pool is full', async () => {
    const { p } = pool({ max: 1, waitMs: 30 });
    await p.acquire(ELICIT, 'exclusive');
    await assert.rejects(p.acquire(ELICIT, 'exclusive'), (err: unknown) => {
      assert.ok(err instanceof ProxyError);
      assert.equal(err.code, 'upstream_unavailable');
      assert.match(err.message, /no legacy session became free within 0.03s \(all 1 allowed by --max-sessions are in use\)/);
      assert.deepEqual(err.data, { reason: 'sessions_busy', action: 'retry' });
      return true;
    });
  });

  it('hands a released session to the oldest waiter', async () => {
    const { p } = pool({ max: 1, waitMs: 1000 });
    const a = await p.acquire(ELICIT, 'exclusive');
    const waiting = p.acquire(ELICIT, 'exclusive');
    assert.equal(p.stats().waiting, 1);
    a.release();
    assert.equal((await waiting).session, a.session);
  });

  it('evicts an idle session of another capability set to make room', async () => {
    const { p } = pool({ max: 1 });
    const a = await p.acquire({}, 'exclusive');
    a.release();
    const b = await p.acquire(ELICIT, 'exclusive');
    assert.notEqual(b.session, a.session);
    assert.equal(a.session.closed, true);
  });

  it('closes a discarded session and frees its slot', async () => {
    const { p } = pool({ max: 1, waitMs: 1000 });
    const a = await p.acquire(ELICIT, 'exclusive');
    const waiting = p.acquire(ELICIT, 'exclusive');
    a.discard('cancelled');
    assert.equal(a.session.closed, true);
    assert.notEqual((await waiting).session, a.session);
  });

  it('release and discard are idempotent', async () => {
    const { p } = pool();
    const a = await p.acquire({}, 'exclusive');
    a.release();
    a.release();
    a.discard('late');
    assert.equal(a.session.closed, false);
    assert.deepEqual(p.stats(), {
      sessions: 1,
      held: 0,
      shared: 0,
      connecting: 0,
      passThrough: 0,
      waiting: 0,
      onClient: 0,
      sharedCalls: 0,
      waitingCalls: 0,
      runners: 0,
      slotWaits: 0,
      callsPerSession: 256,
      maxSessions: 4,
      maxWaiting: 4,
      saturated: false,
    });
  });

  it('forgets a session that died and starts another', async () => {
    const { p, started } = pool();
    const a = await p.acquire({}, 'exclusive');
    a.release();
    await a.session.close('exit 1');
    p.forget(a.session);
    const b = await p.acquire({}, 'exclusive');
    assert.notEqual(b.session, a.session);
    assert.equal(started.length, 2);
  });

  it('keeps spare sessions started for a capability set whose calls wait for clients', async () => {
    const { p, started } = pool({ spares: 1 });
    const a = await p.acquire(ELICIT, 'exclusive');
    await tick();
    assert.equal(started.length, 1, 'no spare for a call that has not waited');
    a.markWaiting();
    await tick();
    assert.equal(started.length, 2, 'one spare started');
    const b = await p.acquire(ELICIT, 'exclusive');
    assert.equal(b.session, started[1], 'the next call takes the spare');
    b.markWaiting();
    await tick();
    assert.equal(started.length, 3, 'and another spare is started');
  });

  it('never starts spares beyond --max-sessions', async () => {
    const { p, started } = pool({ spares: 3, max: 2 });
    (await p.acquire(ELICIT, 'exclusive')).markWaiting();
    await tick();
    assert.equal(started.length, 2);
  });

  it('closes sessions idle past the TTL', async () => {
    const clock = testClock(0);
    const { p } = pool({ idleTtlMs: 100, clock });
    const a = await p.acquire({}, 'exclusive');
    a.release();
    clock.advance(50);
    p.sweepIdle();
    assert.equal(a.session.closed, false);
    clock.advance(51);
    p.sweepIdle();
    assert.equal(a.session.closed, true);
  });

  it('reports a session that cannot be started', async () => {
    const { p } = pool({ failConnect: true });
    await assert.rejects(p.acquire({}, 'shared'), /could not open a legacy session: spawn ENOENT/);
    await assert.rejects(
      p.acquire({}, 'shared'),
      (err: unknown) => err instanceof ProxyError && err.data['reason'] === 'upstream_unreachable' && err.data['action'] === 'retry',
    );
  });

  it('closes everything and refuses new work on close', async () => {
    const { p, started } = pool();
    await p.acquire({}, 'exclusive');
    await p.close();
    assert.ok(started.every((s) => s.closed));
    await assert.rejects(p.acquire({}, 'shared'), /shutting down/);
    await assert.rejects(
      p.acquire({}, 'shared'),
      (err: unknown) => err instanceof ProxyError && err.data['reason'] === 'shutting_down' && err.data['action'] === 'retry',
    );
  });
});
