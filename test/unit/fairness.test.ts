// Issue 14, item 2: calls waiting for a person may hold only their share of the legacy sessions.
// The pool's cap and saturation figures, and the bridge refusing to let one more call wait, on fake
// sessions and a frozen clock.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SessionPool, waitingCap } from '../../src/upstream/pool/pool.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { expectCode, front, setup, type Asked } from '../support/bridge-setup.js';
import { testClock } from '../support/clock.js';
import { FakeSession, tick } from '../support/fake-session.js';

const log = createLogger('error');

function pool(max: number, maxWaiting: number) {
  return new SessionPool<FakeSession>({
    maxSessions: max,
    maxWaiting,
    spareSessions: 0,
    waitMs: 50,
    idleTtlMs: 1000,
    log,
    clock: testClock(),
    connect: async (caps) => new FakeSession(caps),
  });
}

describe('waitingCap', () => {
  it('is the share of --max-sessions, rounded down, and at least one', () => {
    assert.equal(waitingCap(16, 75), 12);
    assert.equal(waitingCap(4, 75), 3);
    assert.equal(waitingCap(2, 75), 1);
    assert.equal(waitingCap(1, 75), 1);
    assert.equal(waitingCap(10, 100), 10);
    assert.equal(waitingCap(10, 1), 1);
  });
});

describe('SessionPool: sessions held by calls waiting for a client', () => {
  it('lets at most maxWaiting exclusive leases wait, and frees the slot on release or resume', async () => {
    const p = pool(4, 2);
    const [a, b, c] = [await p.acquire({}, 'exclusive'), await p.acquire({}, 'exclusive'), await p.acquire({}, 'exclusive')];
    assert.equal(a.markWaiting(), true);
    assert.equal(a.markWaiting(), true, 'marking twice takes one slot');
    assert.equal(b.markWaiting(), true);
    assert.equal(c.markWaiting(), false);
    assert.equal(p.stats().onClient, 2);
    b.markActive();
    assert.equal(c.markWaiting(), true);
    a.release();
    assert.equal(p.stats().onClient, 1);
    const d = await p.acquire({}, 'exclusive');
    assert.equal(d.markWaiting(), true, 'a released lease gave its slot back');
    assert.equal(p.stats().onClient, 2);
  });

  it('keeps sessions for other work while the waiting share is used up', async () => {
    const p = pool(4, 3);
    for (let i = 0; i < 3; i++) assert.equal((await p.acquire({}, 'exclusive')).markWaiting(), true);
    const list = await p.acquire({}, 'shared');
    assert.equal(list.session.closed, false);
    assert.equal(p.stats().saturated, true, 'every session is in use: a call needing one of its own would queue');
    list.release();
    assert.equal(p.stats().saturated, false);
  });

  it('reports saturation when every allowed session is held exclusively', async () => {
    const p = pool(2, 1);
    const a = await p.acquire({}, 'exclusive');
    assert.equal(p.stats().saturated, false);
    await p.acquire({}, 'exclusive');
    assert.deepEqual(p.stats(), {
      sessions: 2,
      held: 2,
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
      maxSessions: 2,
      maxWaiting: 1,
      saturated: true,
    });
    a.release();
    assert.equal(p.stats().saturated, false);
  });
});

describe('Bridge: one more waiting call than the share allows', () => {
  it('is refused at once with waiting_limit, its legacy request answered and its session given up', async () => {
    const { bridge, pool: p, sessions } = setup({ maxWaiting: 1 });
    const first = bridge.call(front());
    await tick();
    const waitingSession = sessions[0]!;
    const roots = waitingSession.ask('roots/list');
    const asked = (await first) as unknown as Asked;
    assert.equal(asked.resultType, 'input_required');

    const second = bridge.call(front());
    await tick();
    const refusedSession = sessions[1]!;
    const question = refusedSession.ask('elicitation/create', { message: 'x', requestedSchema: { type: 'object', properties: {} } });
    const err = await expectCode(second, 'overloaded', /too many calls are waiting for input/);
    assert.deepEqual(err.data, { reason: 'waiting_limit', action: 'retry' });
    assert.deepEqual(await question.answer, { action: 'cancel' });
    assert.equal(refusedSession.lastCall.signal?.aborted, true, 'the legacy call was cancelled');
    assert.equal(refusedSession.closed, true);
    assert.equal(p.stats().onClient, 1);

    // The waiting call is unaffected and, once resumed, frees its slot.
    const done = bridge.call(front({ requestState: asked.requestState, inputResponses: { 'roots-1': { roots: [] } } }));
    await roots.answer; // the retry has claimed the round (opening the state is asynchronous)
    assert.equal(p.stats().onClient, 0);
    waitingSession.lastCall.resolve({ content: [] });
    assert.deepEqual(await done, { content: [] });
  });
});
