// Runner leases: calls whose legacy requests come untied share a session with parked calls and free
// calls, one running at a time. Parking gives the slot up (waiting alone does not); a resumed call
// waits for it, before any new runner; the pool grows by demand for slots, one session at a time. SessionPool over fake
// sessions and a test clock.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Lease } from '../../src/upstream/pool/lease.js';
import { SessionPool } from '../../src/upstream/pool/pool.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { testClock } from '../support/clock.js';
import { FakeSession } from '../support/fake-session.js';

const log = createLogger('error');
const settled = async <T>(p: Promise<T>): Promise<boolean> => {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  return done;
};

/** Waits for its client, with nothing more on its way: gives up its runner slot. */
function park(lease: Lease<FakeSession>): void {
  lease.markWaiting();
  lease.markParked();
}

/** `startMs`: how long each session takes to start, on the test clock. */
function pool(max = 1, startMs = 0) {
  const started: FakeSession[] = [];
  const waited: number[] = [];
  const clock = testClock();
  const p = new SessionPool<FakeSession>({
    maxSessions: max,
    maxWaiting: max,
    spareSessions: 0,
    waitMs: 5000,
    idleTtlMs: 60_000,
    log,
    clock,
    slotWaited: (s) => waited.push(s),
    connect: async (caps) => {
      clock.advance(startMs);
      const s = new FakeSession(caps);
      started.push(s);
      return s;
    },
  });
  return { p, started, waited, clock };
}

describe('runner leases', () => {
  it('parks any number of runners on one session, one running at a time', async () => {
    const { p, started } = pool();
    for (let i = 0; i < 50; i++) {
      const lease = await p.acquire({}, 'runner');
      assert.equal(lease.markWaiting(), true);
      lease.markParked();
    }
    assert.equal(started.length, 1);
    const s = p.stats();
    assert.deepEqual([s.sessions, s.sharedCalls, s.waitingCalls, s.runners], [1, 50, 50, 0]);
  });

  it('queues a second runner while the first runs, and hands it the slot when the first parks', async () => {
    const { p } = pool();
    const first = await p.acquire({}, 'runner');
    const second = p.acquire({}, 'runner');
    assert.equal(await settled(second), false, 'the slot is taken');
    assert.equal(p.stats().waiting, 1);
    park(first);
    const lease = await second;
    assert.equal(lease.session, first.session);
    assert.equal(p.stats().runners, 1);
  });

  it('keeps the slot while a runner waits but is not parked, and resumes it at once', async () => {
    const { p, waited } = pool();
    const a = await p.acquire({}, 'runner');
    assert.equal(a.markWaiting(), true);
    const b = p.acquire({}, 'runner');
    assert.equal(await settled(b), false, 'a request a may still have on its way must not be taken for b');
    assert.equal(p.stats().waitingCalls, 1);
    assert.equal(await settled(a.markActive()), true, 'answered before it parked: it never gave the slot up');
    assert.deepEqual(waited, []);
    park(a);
    assert.equal((await b).session, a.session);
  });

  it('runs shared calls beside a runner', async () => {
    const { p } = pool();
    const runner = await p.acquire({}, 'runner');
    const shared = await p.acquire({}, 'shared');
    assert.equal(shared.session, runner.session);
  });

  it("makes a resumed call wait for its session's slot, and serves it before any new runner", async () => {
    const { p, waited, clock } = pool();
    const a = await p.acquire({}, 'runner');
    park(a);
    const b = await p.acquire({}, 'runner');
    const resumed = a.markActive();
    assert.equal(await settled(resumed), false, 'b runs: a waits for the slot');
    assert.equal(p.stats().slotWaits, 1);
    const newcomer = p.acquire({}, 'runner');
    clock.advance(40);
    park(b);
    assert.equal(await settled(resumed), true, 'a has the slot back');
    assert.equal(await settled(newcomer), false, 'the new runner still waits');
    assert.deepEqual(waited, [0.04]);
    a.release();
    assert.equal((await newcomer).session, a.session);
  });

  it('resumes at once when the slot is free, and resolves a waiting resume whose lease ends', async () => {
    const { p, waited } = pool();
    const a = await p.acquire({}, 'runner');
    park(a);
    await a.markActive();
    assert.equal(p.stats().runners, 1);
    assert.deepEqual(waited, [], 'no wait recorded');
    park(a);
    const b = await p.acquire({}, 'runner');
    const resumed = a.markActive();
    a.discard('session closed');
    assert.equal(await settled(resumed), true);
    assert.equal(b.session.closed, true);
  });

  it('starts a session for queued runners once the oldest has waited two starts, one at a time', async () => {
    const { p, started, clock } = pool(4, 100);
    const first = await p.acquire({}, 'runner');
    assert.equal(started.length, 1, 'no session yet: one starts at once');
    const more = [p.acquire({}, 'runner'), p.acquire({}, 'runner'), p.acquire({}, 'runner')];
    assert.equal(await settled(more[0]!), false, 'a slot frees sooner than a session starts');
    park(first);
    assert.equal((await more[0]!).session, first.session, 'the freed slot is taken');
    assert.equal(started.length, 1);
    // Still queued after a start's time: one more session, not one per waiting runner.
    const second = await more[1]!;
    assert.equal(started.length, 2);
    assert.notEqual(second.session, first.session);
    assert.ok(clock.now() >= 200);
    park(second);
    assert.equal((await more[2]!).session, second.session);
    assert.equal(started.length, 2);
  });

  it('keeps exclusive leases off sessions with parked runners', async () => {
    const { p, started } = pool(2);
    const runner = await p.acquire({}, 'runner');
    park(runner);
    const exclusive = await p.acquire({}, 'exclusive');
    assert.notEqual(exclusive.session, runner.session);
    assert.equal(started.length, 2);
  });
});
