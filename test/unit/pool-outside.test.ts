// Legacy clients' own sessions (relayed as they are) take slots among --max-sessions beside the
// pool's sessions: together they never exceed it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SessionPool } from '../../src/upstream/pool/pool.js';
import { ProxyError } from '../../src/protocol/errors.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { testClock } from '../support/clock.js';
import { FakeSession, tick } from '../support/fake-session.js';

const ELICIT = { elicitation: { form: {} } } as const;

function pool(max: number) {
  const clock = testClock();
  const started: FakeSession[] = [];
  const p = new SessionPool<FakeSession>({
    maxSessions: max,
    maxWaiting: max,
    spareSessions: 0,
    waitMs: 100,
    idleTtlMs: 60_000,
    log: createLogger('error'),
    clock,
    connect: async (caps) => {
      const s = new FakeSession(caps);
      started.push(s);
      return s;
    },
  });
  return { p, started };
}

describe('SessionPool slots outside the pool', () => {
  it('counts them against the maximum: none is given when every slot is taken, and the pool cannot open past them', async () => {
    const { p } = pool(2);
    const a = p.reserveOutside();
    const b = p.reserveOutside();
    assert.ok(a && b);
    assert.equal(p.reserveOutside(), undefined);
    assert.equal(p.stats().passThrough, 2);
    assert.equal(p.stats().saturated, true);
    // A call queues behind them and fails after the session wait.
    const call = p.acquire(ELICIT, 'exclusive');
    await assert.rejects(call, (e: unknown) => e instanceof ProxyError && e.code === 'upstream_unavailable');
  });

  it('hands a freed slot to a queued call, and gives a slot back once however often it is released', async () => {
    const { p, started } = pool(1);
    const release = p.reserveOutside();
    assert.ok(release);
    let leased = false;
    const call = p.acquire(ELICIT, 'exclusive').then((l) => {
      leased = true;
      return l;
    });
    await tick();
    assert.equal(leased, false);
    release();
    const lease = await call;
    assert.equal(started.length, 1);
    release();
    assert.equal(p.stats().passThrough, 0);
    // The call's session holds the one slot: the second release did not free another.
    assert.equal(p.reserveOutside(), undefined);
    lease.release();
  });

  it('closes the longest-idle pooled session to make room', async () => {
    const { p, started } = pool(1);
    const lease = await p.acquire(ELICIT, 'exclusive');
    assert.equal(p.reserveOutside(), undefined, 'the only session is held');
    lease.release();
    const release = p.reserveOutside();
    assert.ok(release);
    assert.equal(started[0]!.closed, true);
    assert.equal(p.stats().sessions, 0);
    release();
  });
});
