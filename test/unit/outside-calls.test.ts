// Answers outside calls and what the proxy learns from them: a roots/list there marks the upstream
// as one that reads roots at initialize; each session answers with the roots it serves.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { OutsideCalls, ROOTS_ASK_WAIT_MAX_MS, ROOTS_ASK_WAIT_MIN_MS, ROOTS_SETTLE_MS, rootsAskWaitMs } from '../../src/upstream/outside-calls.js';
import type { LegacySession } from '../../src/upstream/session.js';
import { testClock } from '../support/clock.js';

const session = { id: 's1' } as LegacySession;
const request = (method: string) => ({ id: 1, method, params: undefined });
const A = [{ uri: 'file:///a', name: 'A' }];

describe('OutsideCalls', () => {
  it('answers roots/list with the roots the session serves and learns that the server asks', async () => {
    const o = new OutsideCalls(createLogger('error'), testClock());
    assert.equal(o.asksRoots, false);
    const one = o.forSession(A);
    const other = o.forSession([]);
    assert.deepEqual(await one.answerLocally(request('roots/list'), session), { roots: A });
    assert.equal(o.asksRoots, true, 'seen on one session, known for the upstream');
    assert.deepEqual(await other.answerLocally(request('roots/list'), session), { roots: [] });
  });

  it('learns nothing from other requests, and answers them as before', async () => {
    const o = new OutsideCalls(createLogger('error'), testClock());
    const s = o.forSession(A);
    assert.deepEqual(await s.answerLocally(request('elicitation/create'), session), { action: 'cancel' });
    await assert.rejects(s.answerLocally(request('sampling/createMessage'), session), (e: unknown) => e instanceof McpError);
    assert.equal(o.asksRoots, false);
  });

  it('settles only after a roots answer given at initialize', async () => {
    const clock = testClock();
    const o = new OutsideCalls(createLogger('error'), clock);
    const quiet = o.forSession(A);
    const t0 = clock.now();
    let pinged = 0;
    await quiet.settle(async () => pinged++);
    assert.equal(pinged, 1);
    assert.equal(clock.now(), t0, 'no wait when the server did not ask');

    const asked = o.forSession(A);
    await asked.answerLocally(request('roots/list'), session);
    await asked.settle(async () => {});
    assert.ok(clock.now() >= t0 + ROOTS_SETTLE_MS, 'waited for the server to apply the roots');
  });

  it('settles even when the ping fails', async () => {
    const o = new OutsideCalls(createLogger('error'), testClock());
    let pinged = 0;
    await assert.doesNotReject(
      o.forSession(A).settle(async () => {
        pinged++;
        throw new Error('no ping');
      }),
    );
    assert.equal(pinged, 1, 'the ping was tried');
  });

  it('waits, on a server known to ask, until it asked the new session too', async () => {
    const clock = testClock();
    const o = new OutsideCalls(createLogger('error'), clock);
    await o.forSession(A).answerLocally(request('roots/list'), session);
    const fresh = o.forSession(A);
    const t0 = clock.now();
    const settled = fresh.settle(async () => {});
    // The server asks on a timer after initialize, as server-everything does.
    setTimeout(() => void fresh.answerLocally(request('roots/list'), session), 30);
    await settled;
    const waited = clock.now() - t0;
    assert.ok(waited >= ROOTS_SETTLE_MS && waited < ROOTS_ASK_WAIT_MIN_MS, `waited for the ask, then settled (${waited} ms)`);
  });

  it('knows whether the server asks once it asked, or once its first session had the time to', async () => {
    const clock = testClock();
    const o = new OutsideCalls(createLogger('error'), clock);
    await o.rootsKnown();
    const first = o.forSession(A);
    const settled = first.settle(async () => {});
    let known = false;
    const knowing = o.rootsKnown().then(() => (known = true));
    await settled;
    assert.equal(known, false, 'the session is handed out at once; the window goes on');
    void first.answerLocally(request('roots/list'), session);
    await knowing;
    assert.equal(o.asksRoots, true);
  });

  it('bounds the wait by the slowest ask seen', () => {
    assert.equal(rootsAskWaitMs(0), ROOTS_ASK_WAIT_MIN_MS);
    assert.equal(rootsAskWaitMs(700), 2100);
    assert.equal(rootsAskWaitMs(60_000), ROOTS_ASK_WAIT_MAX_MS);
  });
});
