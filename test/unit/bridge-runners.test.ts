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
    const { bridge, sessions, pool, last } = setup({ leaseMode: 'runner', gatherMs: 5 });
    const asked: Asked[] = [];
    const questions = [];
    for (const who of ['ann', 'bob', 'cy']) {
      const first = bridge.call(front({ params: { name: 'book', arguments: { who } } }));
      await tick();
      questions.push(last().ask('elicitation/create', QUESTION));
      asked.push((await first) as unknown as Asked);
      await until(() => pool.stats().runners === 0, 1000, 'parked once quiet for the gather window');
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

  it('asks a request that arrives after its round went out in its next round, and starts no runner beside it until it parks', async () => {
    // The round closes after 1 ms of quiet; the call parks only after the gather window (a minute here).
    const { bridge, sessions, pool, last } = setup({ leaseMode: 'runner', gatherMs: 60_000 });
    const first = bridge.call(front());
    await tick();
    const elicited = last().ask('elicitation/create', QUESTION);
    const asked = (await first) as unknown as Asked;
    assert.deepEqual(Object.keys(asked.inputRequests), ['elicitation-1']);
    const other = bridge.call(front({ params: { name: 'other', arguments: {} } }));
    await until(() => sessions.length === 2, 1000, 'the other runner on a session of its own');
    assert.equal(sessions[0]!.calls.length, 1, "nothing else runs untied on the first call's session");
    assert.equal(pool.stats().runners, 2);
    // The server was short of CPU: its second request comes after the round went out.
    const sampled = sessions[0]!.ask('sampling/createMessage', { messages: [], maxTokens: 5 });
    const second = (await bridge.call(
      front({ requestState: asked.requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'ann' } } } }),
    )) as unknown as Asked;
    assert.deepEqual(await elicited.answer, { action: 'accept', content: { name: 'ann' } });
    assert.deepEqual(Object.keys(second.inputRequests), ['sampling-2']);
    const reply = { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' };
    const done = bridge.call(front({ requestState: second.requestState, inputResponses: { 'sampling-2': reply } }));
    assert.deepEqual(await sampled.answer, reply);
    sessions[0]!.lastCall.resolve({ content: [{ type: 'text', text: 'ann, hi' }] });
    assert.deepEqual(await done, { content: [{ type: 'text', text: 'ann, hi' }] });
    sessions[1]!.lastCall.resolve({ content: [] });
    await other;
  });

  it('parks at once a call whose local child is seen asleep (it has sent all it had)', async () => {
    const { bridge, pool, last } = setup({ leaseMode: 'runner', gatherMs: 60_000 });
    const first = bridge.call(front());
    await tick();
    last().processRunning = false;
    last().ask('elicitation/create', QUESTION);
    await first;
    assert.deepEqual([pool.stats().runners, pool.stats().waitingCalls], [0, 1]);
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
