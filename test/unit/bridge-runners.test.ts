// The bridge over runner leases: interactive calls whose questions come untied park side by side
// on one legacy session, each resumed with its own answers once it has the session's runner slot;
// ending a parked one answers its question `cancel` and gives the slot back on its result.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { front, setup, type Asked } from '../support/bridge-setup.js';
import { tick } from '../support/fake-session.js';
import { until } from '../support/wait.js';

const QUESTION = { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } };

describe('Bridge: runner leases', () => {
  it('parks several calls on one session and resumes each with its own answer', async () => {
    const { bridge, sessions, pool, last } = setup({ leaseMode: 'runner' });
    const asked: Asked[] = [];
    const questions = [];
    for (const who of ['ann', 'bob', 'cy']) {
      const first = bridge.call(front({ params: { name: 'book', arguments: { who } } }));
      await tick();
      questions.push(last().ask('elicitation/create', QUESTION));
      asked.push((await first) as unknown as Asked);
    }
    assert.equal(sessions.length, 1, 'one legacy session for three waiting users');
    assert.deepEqual([pool.stats().waitingCalls, pool.stats().runners], [3, 0]);
    const calls = [...sessions[0]!.calls];
    // Answered in reverse order: each answer reaches its own call's question.
    for (const i of [2, 1, 0]) {
      const retry = bridge.call(
        front({
          params: { name: 'book', arguments: { who: i } },
          requestState: asked[i]!.requestState,
          inputResponses: { 'elicitation-1': { action: 'accept', content: { name: `n${i}` } } },
        }),
      );
      assert.deepEqual(await questions[i]!.answer, { action: 'accept', content: { name: `n${i}` } });
      calls[i]!.resolve({ content: [{ type: 'text', text: `done ${i}` }] });
      assert.deepEqual(await retry, { content: [{ type: 'text', text: `done ${i}` }] });
    }
    assert.deepEqual([pool.stats().sharedCalls, pool.stats().runners], [0, 0]);
  });

  it('ends an expired parked call by answering cancel, and frees the slot on its result without closing the session', async () => {
    const { bridge, sessions, pool, last, clock } = setup({ leaseMode: 'runner', ttlMs: 1000 });
    const first = bridge.call(front());
    await tick();
    const question = last().ask('elicitation/create', QUESTION);
    await first;
    clock.advance(1001);
    bridge.expire();
    assert.deepEqual(await question.answer, { action: 'cancel' });
    last().lastCall.resolve({ content: [{ type: 'text', text: 'no name (cancel)' }] });
    await until(() => pool.stats().sharedCalls === 0, 1000, 'the lease given back');
    assert.equal(sessions[0]!.closed, false);
    assert.equal(pool.stats().runners, 0);
  });
});
