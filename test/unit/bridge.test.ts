// The bridge's rounds without I/O: a simulated legacy session (test/support/fake-session.ts) plays
// the server, the clock is injected, and every decision is checked on plain objects.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { expectCode, front, setup, type Asked } from '../support/bridge-setup.js';
import { tick } from '../support/fake-session.js';

describe('Bridge: rounds', () => {
  it('returns the legacy result when the server asks for nothing, and frees the session', async () => {
    const { bridge, pool, last } = setup();
    const pending = bridge.call(front());
    await tick();
    assert.equal(last().lastCall.method, 'tools/call');
    assert.deepEqual(last().lastCall.params, { name: 'book', arguments: { day: 'mon' } });
    last().lastCall.resolve({ content: [{ type: 'text', text: 'ok' }] });
    assert.deepEqual(await pending, { content: [{ type: 'text', text: 'ok' }] });
    assert.equal(pool.stats().held, 0);
  });

  it('suspends on a mid-call request and resumes the same legacy call on retry', async () => {
    const { bridge, last, sessions } = setup();
    const first = bridge.call(front());
    await tick();
    const q = last().ask('elicitation/create', {
      message: 'How many?',
      requestedSchema: { type: 'object', properties: {} },
      elicitationId: 'e1',
      _meta: { x: 1 },
    });
    const asked = (await first) as unknown as Asked;
    assert.equal(asked.resultType, 'input_required');
    assert.deepEqual(asked.inputRequests, {
      'elicitation-1': { method: 'elicitation/create', params: { message: 'How many?', requestedSchema: { type: 'object', properties: {} } } },
    });
    assert.equal(bridge.suspendedCount, 1);

    const retry = bridge.call(front({ requestState: asked.requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: { n: 4 } } } }));
    assert.deepEqual(await q.answer, { action: 'accept', content: { n: 4 } });
    last().lastCall.resolve({ content: [], booked: 4 });
    assert.deepEqual(await retry, { content: [], booked: 4 });
    assert.equal(sessions.length, 1, 'the same legacy session throughout');
    assert.equal(bridge.suspendedCount, 0);
  });

  it('gathers requests sent together into one round', async () => {
    const { bridge, last } = setup({ gatherMs: 20 });
    const first = bridge.call(front());
    await tick();
    last().ask('elicitation/create', { message: 'a', requestedSchema: { type: 'object', properties: {} } });
    last().ask('sampling/createMessage', { messages: [], maxTokens: 5 });
    last().ask('roots/list');
    const asked = (await first) as unknown as Asked;
    assert.deepEqual(Object.keys(asked.inputRequests), ['elicitation-1', 'sampling-2', 'roots-3']);
    assert.deepEqual(asked.inputRequests['roots-3'], { method: 'roots/list' });
  });

  it('closes a round once the session is quiet, and keeps it open while the server process runs or the wait ended late', async () => {
    /** `between` runs after the first request; what it returns runs once the second has been sent. */
    const round = async (between: (s: ReturnType<typeof setup>) => (() => void) | undefined) => {
      const s = setup({ gatherMs: 200 });
      const first = s.bridge.call(front());
      await tick();
      s.last().ask('elicitation/create', { message: 'a', requestedSchema: { type: 'object', properties: {} } });
      const after = between(s);
      await tick(20);
      s.last().ask('roots/list');
      after?.();
      return Object.keys(((await first) as unknown as Asked).inputRequests);
    };
    assert.deepEqual(await round(() => undefined), ['elicitation-1'], 'quiet: the second request is a round of its own');
    const busy = await round((s) => {
      s.last().processRunning = true;
      return () => (s.last().processRunning = false);
    });
    assert.deepEqual(busy, ['elicitation-1', 'roots-2'], 'a running server process keeps the round open');
    // The test clock moves only when a timer fires (to its due time) or the test advances it: a
    // timer that moves it 5 ms past its due time before it runs ended 5 ms late.
    const late = await round((s) => {
      let lateMs = 5;
      const after = s.clock.after.bind(s.clock);
      s.clock.after = (ms, fn) =>
        after(ms, () => {
          s.clock.advance(lateMs);
          fn();
        });
      return () => {
        lateMs = 0;
      };
    });
    assert.deepEqual(late, ['elicitation-1', 'roots-2'], 'late waits (a busy machine) keep the round open');
  });

  it('closes a round as soon as the local server process is seen waiting, with what it sent together', async () => {
    const s = setup({ gatherMs: 200 });
    const first = s.bridge.call(front());
    await tick();
    const startedAt = s.clock.now();
    s.last().processRunning = false;
    s.last().ask('elicitation/create', { message: 'a', requestedSchema: { type: 'object', properties: {} } });
    s.last().ask('roots/list');
    assert.deepEqual(Object.keys(((await first) as unknown as Asked).inputRequests), ['elicitation-1', 'roots-2']);
    assert.equal(s.clock.now(), startedAt, 'no quiet period was waited for');
  });

  it('closes the round of a process that keeps a thread busy beside its waiting main thread once quiet, not at the window', async () => {
    const s = setup({ gatherMs: 200 });
    const first = s.bridge.call(front());
    await tick();
    const startedAt = s.clock.now();
    s.last().processRunning = true;
    s.last().mainThreadRunning = false;
    s.last().ask('elicitation/create', { message: 'a', requestedSchema: { type: 'object', properties: {} } });
    assert.deepEqual(Object.keys(((await first) as unknown as Asked).inputRequests), ['elicitation-1']);
    assert.ok(s.clock.now() - startedAt < 10, `closed after ${s.clock.now() - startedAt} ms`);
  });

  it('asks again for what is missing, with a new state, and ignores extra keys', async () => {
    const { bridge, last } = setup();
    const first = bridge.call(front());
    await tick();
    const e = last().ask('elicitation/create', { message: 'a', requestedSchema: { type: 'object', properties: {} } });
    last().ask('roots/list');
    const asked = (await first) as unknown as Asked;
    const again = (await bridge.call(
      front({ requestState: asked.requestState, inputResponses: { 'elicitation-1': { action: 'decline' }, stray: 1 } }),
    )) as unknown as Asked;
    assert.deepEqual(await e.answer, { action: 'decline' });
    assert.equal(again.resultType, 'input_required');
    assert.deepEqual(Object.keys(again.inputRequests), ['roots-3'.replace('3', '2')]);
    assert.notEqual(again.requestState, asked.requestState);
  });

  it('rejects a malformed answer without consuming the round', async () => {
    const { bridge, last } = setup();
    const first = bridge.call(front());
    await tick();
    const q = last().ask('sampling/createMessage', { messages: [], maxTokens: 5 });
    const asked = (await first) as unknown as Asked;
    await expectCode(
      bridge.call(front({ requestState: asked.requestState, inputResponses: { 'sampling-1': { role: 'assistant' } } })),
      'input_invalid',
      /sampling-1/,
    );
    await expectCode(
      bridge.call(front({ requestState: asked.requestState, inputResponses: {}, droppedInputKeys: ['sampling-1'] })),
      'input_invalid',
      /not a bare CreateMessageResult/,
    );
    const ok = bridge.call(
      front({ requestState: asked.requestState, inputResponses: { 'sampling-1': { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' } } }),
    );
    assert.equal(((await q.answer) as { model: string }).model, 'm');
    last().lastCall.resolve({ content: [] });
    await ok;
  });

  it('accepts a state once', async () => {
    const { bridge, last } = setup();
    const first = bridge.call(front());
    await tick();
    const q = last().ask('roots/list');
    const asked = (await first) as unknown as Asked;
    const answers = { 'roots-1': { roots: [] } };
    const ok = bridge.call(front({ requestState: asked.requestState, inputResponses: answers }));
    // Opening a state is asynchronous (WebCrypto), so two retries sent back to back may claim in
    // either order; wait until the first one has claimed the round and answered the server.
    await q.answer;
    await expectCode(bridge.call(front({ requestState: asked.requestState, inputResponses: answers })), 'interaction_gone', /already used/);
    last().lastCall.resolve({ content: [] });
    await ok;
    await expectCode(bridge.call(front({ requestState: asked.requestState, inputResponses: answers })), 'interaction_gone', /already completed/);
  });

  it('binds the state to the request and the principal', async () => {
    const { bridge, last } = setup();
    const first = bridge.call(front());
    await tick();
    last().ask('roots/list');
    const { requestState } = (await first) as unknown as Asked;
    const other = front({ requestState, identity: { method: 'tools/call', target: 'book', args: { day: 'tue' } } });
    await expectCode(bridge.call(other), 'state_invalid', /different request/);
    await expectCode(bridge.call(front({ requestState, principal: 'mallory' })), 'state_invalid', /different principal/);
    // One ciphertext character changed (the tag's last characters carry padding bits that may not count).
    const forged = `${requestState.slice(0, -30)}${requestState.at(-30) === 'A' ? 'B' : 'A'}${requestState.slice(-29)}`;
    await expectCode(bridge.call(front({ requestState: forged })), 'state_invalid', /failed authentication/);
  });

  it('refuses a request for an undeclared capability and ends the call', async () => {
    const { bridge, last } = setup();
    const first = bridge.call(front({ capabilities: { elicitation: {} } }));
    await tick();
    const s = last();
    const q = s.ask('sampling/createMessage', { messages: [], maxTokens: 5, tools: [] });
    const err = await expectCode(first, 'capability_missing', /sampling/);
    assert.deepEqual(err.data, { reason: 'capability_undeclared', action: 'stop', requiredCapabilities: { sampling: { tools: {} } } });
    await assert.rejects(q.answer, (e: McpError) => e.code === -32601);
    await tick();
    assert.equal(s.closed, true, 'the session is discarded');
    assert.ok(s.lastCall.signal?.aborted, 'the legacy call is cancelled');
  });

  it('does not offer URL elicitation to a form-only client', async () => {
    const { bridge, last } = setup();
    const first = bridge.call(front({ capabilities: { elicitation: { form: {} } } }));
    await tick();
    const q = last().ask('elicitation/create', { mode: 'url', message: 'go', url: 'https://example.com' });
    const err = await expectCode(first, 'capability_missing');
    assert.deepEqual(err.data, { reason: 'capability_undeclared', action: 'stop', requiredCapabilities: { elicitation: { url: {} } } });
    await assert.rejects(q.answer, (e: McpError) => e.code === -32602, 'legacy clients answer an undeclared elicitation mode with -32602');
  });

  it('ends an interaction nobody resumes: cancel to the server, session discarded, retry told it expired', async () => {
    // No gather window: the round closes at once, so the suspension starts at the clock's start.
    const { bridge, last, clock } = setup({ ttlMs: 1000, gatherMs: 0 });
    const first = bridge.call(front());
    await tick();
    const s = last();
    const q = s.ask('elicitation/create', { message: 'a', requestedSchema: { type: 'object', properties: {} } });
    const r = s.ask('roots/list');
    const { requestState } = (await first) as unknown as Asked;
    clock.advance(999);
    bridge.expire();
    assert.equal(bridge.suspendedCount, 1);
    clock.advance(1);
    bridge.expire();
    assert.equal(bridge.suspendedCount, 0);
    assert.deepEqual(await q.answer, { action: 'cancel' });
    await assert.rejects(r.answer, (e: McpError) => e.code === -32603);
    await tick();
    assert.equal(s.closed, true);
    await expectCode(bridge.call(front({ requestState, inputResponses: {} })), 'state_invalid', /expired/);
  });

  it('gives the retry the outcome when the call ended on its own while suspended (legacy_gave_up: bridge-replay.test.ts)', async () => {
    const { bridge, last } = setup();
    const first = bridge.call(front());
    await tick();
    last().ask('elicitation/create', { message: 'a', requestedSchema: { type: 'object', properties: {} } });
    const { requestState } = (await first) as unknown as Asked;
    last().lastCall.resolve({ content: [{ type: 'text', text: 'gave up' }] });
    await tick();
    const r = await bridge.call(front({ requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: {} } } }));
    assert.deepEqual(r, { content: [{ type: 'text', text: 'gave up' }] });
  });
});
