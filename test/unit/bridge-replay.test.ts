// Replay mode in the bridge, on fake sessions: the legacy call is let go at each question and run
// again on the retry, with the recorded answers given back to the server without asking the client.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectCode, front, setup, type Asked } from '../support/bridge-setup.js';
import { tick, until, type FakeSession } from '../support/fake-session.js';
import type { Sealer } from '../../src/state/seal.js';

const schema = (k: string) => ({ type: 'object', properties: { [k]: { type: 'string' } }, required: [k] });
const question = (k: string, text = `${k}?`) => ({ message: text, requestedSchema: schema(k) });
const accept = (k: string, v: string) => ({ action: 'accept', content: { [k]: v } });

/**
 * The session the retry just sent runs the call on: earlier runs' calls are let go (a let-go call
 * is cancelled only once it has not ended within the let-go quiet period; its session may still be settling).
 */
async function running(sessions: FakeSession[]): Promise<FakeSession> {
  const earlier = new Set(sessions.flatMap((s) => s.calls));
  const find = () => sessions.find((s) => s.calls.some((c) => !earlier.has(c) && !c.signal?.aborted));
  await until(() => find() !== undefined);
  return find()!;
}

describe('Bridge: replay', () => {
  it('lets the legacy call go at a question: cancelled upstream, question answered locally, session back in the pool', async () => {
    const { bridge, pool, last } = setup({ suspend: 'replay' });
    const first = bridge.call(front());
    await tick();
    const call = last().lastCall;
    const q = last().ask('elicitation/create', question('first'));
    const asked = (await first) as unknown as Asked;
    assert.equal(asked.resultType, 'input_required');
    assert.deepEqual(Object.keys(asked.inputRequests), ['elicitation-1']);
    // Answered before the call is cancelled: a legacy SDK that has forgotten a cancelled call's requests logs a late answer as unknown.
    await assert.rejects(q.answer, /the call was cancelled/, 'the open question was answered so the handler stops');
    assert.equal(call.signal?.aborted, false, 'not cancelled yet: the handler may end by itself');
    await until(() => call.signal?.aborted === true);
    assert.equal(bridge.suspendedCount, 0, 'nothing held in this process');
    // A late question from the cancelled handler is refused, never handed to the next call.
    await assert.rejects(last().ask('elicitation/create', question('late')).answer, /was cancelled/);
    assert.equal(pool.stats().held, 1, 'the session settles before it is handed on');
    await until(() => pool.stats().held === 0);
    const { sessions, held, connecting, waiting } = pool.stats();
    assert.deepEqual({ sessions, held, connecting, waiting }, { sessions: 1, held: 0, connecting: 0, waiting: 0 });
    assert.equal(last().closed, false, 'the session was released, not discarded');
  });

  it('runs the call again on retry, answers recorded questions from the record and asks only the new one', async () => {
    const { bridge, last, sessions } = setup({ suspend: 'replay' });
    const r1 = bridge.call(front());
    await tick();
    void last()
      .ask('elicitation/create', question('first', 'First? (10:00)'))
      .answer.catch(() => {});
    const a1 = (await r1) as unknown as Asked;

    const r2 = bridge.call(front({ requestState: a1.requestState, inputResponses: { 'elicitation-1': accept('first', 'A') } }));
    let s = await running(sessions);
    // The rerun asks the same question with other wording: answered from the record, no round trip.
    assert.deepEqual(await s.ask('elicitation/create', question('first', 'First? (10:05)')).answer, accept('first', 'A'));
    void s.ask('elicitation/create', question('second')).answer.catch(() => {});
    const a2 = (await r2) as unknown as Asked;
    assert.deepEqual(Object.keys(a2.inputRequests), ['elicitation-2']);

    const r3 = bridge.call(front({ requestState: a2.requestState, inputResponses: { 'elicitation-2': accept('second', 'B') } }));
    s = await running(sessions);
    assert.deepEqual(await s.ask('elicitation/create', question('first')).answer, accept('first', 'A'));
    assert.deepEqual(await s.ask('elicitation/create', question('second')).answer, accept('second', 'B'));
    s.calls.find((c) => !c.signal?.aborted)!.resolve({ content: [{ type: 'text', text: 'A B' }] });
    assert.deepEqual(await r3, { content: [{ type: 'text', text: 'A B' }] });
  });

  it('asks the client anew in hold mode, never fails nor loops, when the rerun asks a different question', async () => {
    const { bridge, last, sessions } = setup({ suspend: 'replay' });
    const r1 = bridge.call(front());
    await tick();
    void last()
      .ask('elicitation/create', question('first'))
      .answer.catch(() => {});
    const a1 = (await r1) as unknown as Asked;
    const r2 = bridge.call(front({ requestState: a1.requestState, inputResponses: { 'elicitation-1': accept('first', 'A') } }));
    void (await running(sessions)).ask('elicitation/create', question('other')).answer.catch(() => {});
    const a2 = (await r2) as unknown as Asked;
    assert.deepEqual(a2.inputRequests['elicitation-1']?.params, question('other'));
    assert.equal(bridge.suspendedCount, 1, 'the run is held: its retry ends it instead of running it a third time');
  });

  it('lets each replay state be used once, and a malformed retry consumes nothing', async () => {
    const { bridge, last, sessions } = setup({ suspend: 'replay' });
    const r1 = bridge.call(front());
    await tick();
    void last()
      .ask('elicitation/create', question('first'))
      .answer.catch(() => {});
    const a1 = (await r1) as unknown as Asked;
    const bad = front({ requestState: a1.requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: 7 } } });
    await expectCode(bridge.call(bad), 'input_invalid', /is not a valid ElicitResult/);
    const good = bridge.call(front({ requestState: a1.requestState, inputResponses: { 'elicitation-1': accept('first', 'A') } }));
    // Opening a state is asynchronous (WebCrypto): the second retry is sent once the first has
    // consumed the state and runs the call again, or which of the two wins would be a race.
    const s = await running(sessions);
    const again = await expectCode(
      bridge.call(front({ requestState: a1.requestState, inputResponses: { 'elicitation-1': accept('first', 'A') } })),
      'interaction_gone',
      /already used/,
    );
    assert.deepEqual(again.data, { reason: 'consumed', action: 'stop' });
    await s.ask('elicitation/create', question('first')).answer;
    s.calls.find((c) => !c.signal?.aborted)!.resolve({ content: [] });
    assert.deepEqual(await good, { content: [] });
  });

  it('never cancels a let-go call whose handler ends once its question is refused', async () => {
    const { bridge, pool, last } = setup({ suspend: 'replay' });
    const first = bridge.call(front());
    await tick();
    const call = last().lastCall;
    const q = last().ask('elicitation/create', question('first'));
    await first;
    await assert.rejects(q.answer, /the call was cancelled/);
    call.resolve({ content: [], isError: true });
    await until(() => pool.stats().held === 0);
    assert.equal(call.signal?.aborted, false, 'no notifications/cancelled for a call that ended');
    assert.equal(last().closed, false);
  });

  it('continues in hold mode when the record would outgrow --max-state-bytes', async () => {
    const { bridge, last } = setup({ suspend: 'replay', maxStateBytes: 1024 });
    const r1 = bridge.call(front());
    await tick();
    const call = last().lastCall;
    const big = { type: 'object', properties: Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`field${i}x${i * 7919}`, { type: 'string' }])) };
    const q = last().ask('elicitation/create', { message: 'Many?', requestedSchema: big });
    const a1 = (await r1) as unknown as Asked;
    assert.ok(a1.requestState.length < 1024, 'a hold state is small');
    assert.equal(call.signal?.aborted, false, 'the legacy call is still running');
    assert.equal(bridge.suspendedCount, 1);
    const r2 = bridge.call(front({ requestState: a1.requestState, inputResponses: { 'elicitation-1': { action: 'decline' } } }));
    assert.deepEqual(await q.answer, { action: 'decline' });
    call.resolve({ content: [] });
    assert.deepEqual(await r2, { content: [] });
  });
});

describe('Bridge: a held call whose legacy server gives up', () => {
  it('ends the call when the server withdraws its question while the user thinks; the retry learns after how long', async () => {
    const { bridge, clock, last } = setup({ suspend: 'hold' });
    const first = bridge.call(front());
    await tick();
    const call = last().lastCall;
    const q = last().ask('elicitation/create', question('first'));
    const asked = (await first) as unknown as Asked;
    clock.advance(2000);
    q.withdraw();
    await until(() => call.signal?.aborted === true);
    assert.equal(bridge.suspendedCount, 0);
    assert.equal(last().closed, true, 'the session of a call that ended mid-way is discarded');
    const err = await expectCode(
      bridge.call(front({ requestState: asked.requestState, inputResponses: { 'elicitation-1': accept('first', 'A') } })),
      'interaction_gone',
      /the legacy server gave up waiting for the answer after 2 s/,
    );
    assert.deepEqual(err.data, { reason: 'legacy_gave_up', action: 'resend', waitedSeconds: 2 });
  });

  it('ends the call when its question is withdrawn while the round carrying it is still being sent out', async () => {
    let opened: (() => void) | undefined;
    const gated = (sealer: Sealer): Sealer => {
      const wrapped = Object.create(sealer) as Sealer;
      wrapped.seal = async (...args: Parameters<Sealer['seal']>) => {
        await new Promise<void>((resolve) => (opened = resolve));
        return sealer.seal(...args);
      };
      return wrapped;
    };
    const { bridge, last } = setup({ suspend: 'hold', sealer: gated });
    const first = bridge.call(front());
    await tick();
    const call = last().lastCall;
    const q = last().ask('elicitation/create', question('first'));
    // The round has closed and is being sealed, its front request still attached: then the server gives up.
    await until(() => opened !== undefined);
    q.withdraw();
    opened!();
    const asked = (await first) as unknown as Asked;
    await until(() => call.signal?.aborted === true);
    const err = await expectCode(
      bridge.call(front({ requestState: asked.requestState, inputResponses: { 'elicitation-1': accept('first', 'A') } })),
      'interaction_gone',
      /the legacy server gave up waiting/,
    );
    assert.equal((err.data as { reason?: string }).reason, 'legacy_gave_up');
  });

  it('does not end a call whose question is withdrawn while the front request is still attached', async () => {
    const { bridge, last } = setup({ suspend: 'hold', gatherMs: 200 });
    const first = bridge.call(front());
    await tick();
    const q = last().ask('elicitation/create', question('first'));
    q.withdraw();
    last().lastCall.resolve({ content: [{ type: 'text', text: 'gave up' }] });
    assert.deepEqual(await first, { content: [{ type: 'text', text: 'gave up' }] });
  });
});
