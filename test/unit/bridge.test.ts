// The bridge without I/O: a simulated legacy session (test/support/fake-session.ts) plays the
// server, the clock is injected, and every decision is checked on plain objects.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { Bridge, type FrontCall } from '../../src/bridge/bridge.js';
import { ProxyError, UpstreamError } from '../../src/protocol/errors.js';
import { createSealer } from '../../src/state/seal.js';
import { createLogger } from '../../src/telemetry/logger.js';
import type { JsonObject } from '../../src/protocol/json.js';
import { SessionPool } from '../../src/upstream/pool.js';
import { testClock } from '../support/clock.js';
import { FakeSession, tick, until } from '../support/fake-session.js';

const log = createLogger('error');
const KEY = new Uint8Array(32).fill(5);

function setup(opts: { ttlMs?: number; callTimeoutMs?: number; gatherMs?: number } = {}) {
  const clock = testClock();
  const sessions: FakeSession[] = [];
  const pool = new SessionPool<FakeSession>({
    maxSessions: 8,
    spareSessions: 0,
    waitMs: 100,
    idleTtlMs: 60_000,
    log,
    clock,
    connect: async (caps) => {
      const s = new FakeSession(caps);
      sessions.push(s);
      return s;
    },
  });
  const bridge = new Bridge({
    sessions: pool,
    sealer: createSealer(KEY, clock.now),
    instance: 'instance-A',
    limits: { interactionTtlMs: opts.ttlMs ?? 60_000, gatherWindowMs: opts.gatherMs ?? 5, callTimeoutMs: opts.callTimeoutMs ?? 5_000 },
    log,
    clock,
  });
  return { bridge, pool, sessions, clock, last: () => sessions.at(-1)! };
}

interface Sent {
  method: string;
  params: JsonObject;
}

const frontWith = (o: Partial<FrontCall>) => front(o);

function front(overrides: Partial<FrontCall> = {}, sent: Sent[] = []): FrontCall {
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

type Asked = { resultType: string; inputRequests: Record<string, { method: string; params?: JsonObject }>; requestState: string };

async function expectCode(p: Promise<unknown>, code: string, message?: RegExp): Promise<ProxyError> {
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

describe('Bridge', () => {
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
    const q = last().ask('elicitation/create', { message: 'How many?', requestedSchema: { type: 'object', properties: {} }, elicitationId: 'e1', _meta: { x: 1 } });
    const asked = (await first) as unknown as Asked;
    assert.equal(asked.resultType, 'input_required');
    assert.deepEqual(asked.inputRequests, { 'elicitation-1': { method: 'elicitation/create', params: { message: 'How many?', requestedSchema: { type: 'object', properties: {} } } } });
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

  it('asks again for what is missing, with a new state, and ignores extra keys', async () => {
    const { bridge, last } = setup();
    const first = bridge.call(front());
    await tick();
    const e = last().ask('elicitation/create', { message: 'a', requestedSchema: { type: 'object', properties: {} } });
    last().ask('roots/list');
    const asked = (await first) as unknown as Asked;
    const again = (await bridge.call(front({ requestState: asked.requestState, inputResponses: { 'elicitation-1': { action: 'decline' }, stray: 1 } }))) as unknown as Asked;
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
    await expectCode(bridge.call(front({ requestState: asked.requestState, inputResponses: { 'sampling-1': { role: 'assistant' } } })), 'input_invalid', /sampling-1/);
    await expectCode(bridge.call(front({ requestState: asked.requestState, inputResponses: {}, droppedInputKeys: ['sampling-1'] })), 'input_invalid', /not a bare CreateMessageResult/);
    const ok = bridge.call(front({ requestState: asked.requestState, inputResponses: { 'sampling-1': { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' } } }));
    assert.equal(((await q.answer) as { model: string }).model, 'm');
    last().lastCall.resolve({ content: [] });
    await ok;
  });

  it('accepts a state once', async () => {
    const { bridge, last } = setup();
    const first = bridge.call(front());
    await tick();
    last().ask('roots/list');
    const asked = (await first) as unknown as Asked;
    const answers = { 'roots-1': { roots: [] } };
    const ok = bridge.call(front({ requestState: asked.requestState, inputResponses: answers }));
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
    await expectCode(bridge.call(front({ requestState: requestState.slice(0, -2) + 'AA' })), 'state_invalid', /failed authentication/);
  });

  it('refuses a request for an undeclared capability and ends the call', async () => {
    const { bridge, last } = setup();
    const first = bridge.call(front({ capabilities: { elicitation: {} } }));
    await tick();
    const s = last();
    const q = s.ask('sampling/createMessage', { messages: [], maxTokens: 5, tools: [] });
    const err = await expectCode(first, 'capability_missing', /sampling/);
    assert.deepEqual(err.data, { requiredCapabilities: { sampling: { tools: {} } } });
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
    assert.deepEqual(err.data, { requiredCapabilities: { elicitation: { url: {} } } });
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

  it('gives the retry the outcome when the server withdrew its request while suspended', async () => {
    const { bridge, last } = setup();
    const first = bridge.call(front());
    await tick();
    const q = last().ask('elicitation/create', { message: 'a', requestedSchema: { type: 'object', properties: {} } });
    const { requestState } = (await first) as unknown as Asked;
    q.withdraw();
    last().lastCall.resolve({ content: [{ type: 'text', text: 'gave up' }] });
    await tick();
    const r = await bridge.call(front({ requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: {} } } }));
    assert.deepEqual(r, { content: [{ type: 'text', text: 'gave up' }] });
  });

  it('translates a legacy error and reports a dead session', async () => {
    const { bridge, last } = setup();
    const a = bridge.call(front());
    await tick();
    last().lastCall.reject(new McpError(-32002, 'gone', { uri: 'x' }));
    await assert.rejects(a, (e: unknown) => e instanceof UpstreamError && e.wire.code === -32602 && e.wire.message === 'gone');
    const b = bridge.call(front());
    await tick();
    await last().close('the legacy server process exited');
    await expectCode(b, 'upstream_failed', /session ended during the call \(the legacy server process exited\)/);
  });

  it('cancels a call that outlives --call-timeout', async () => {
    const { bridge, last } = setup({ callTimeoutMs: 20 });
    const p = bridge.call(front());
    await tick();
    const s = last();
    await expectCode(p, 'timeout', /did not answer within 0.02s/);
    assert.ok(s.lastCall.signal?.aborted);
    await tick();
    assert.equal(s.closed, true);
  });

  it('cancels the legacy call when the client goes away', async () => {
    const { bridge, last } = setup();
    const abort = new AbortController();
    const p = bridge.call(front({ signal: abort.signal }));
    await tick();
    abort.abort();
    await expectCode(p, 'upstream_failed', /cancelled by the client/);
    assert.ok(last().lastCall.signal?.aborted);
  });

  it('turns a legacy -32042 into URL elicitation and re-sends the call once accepted', async () => {
    const { bridge, last, sessions } = setup();
    const front = (o: Partial<FrontCall> = {}) => frontWith({ capabilities: { elicitation: { form: {}, url: {} } }, ...o });
    const first = bridge.call(front());
    await tick();
    last().lastCall.reject(new McpError(-32042, 'auth needed', { elicitations: [{ mode: 'url', url: 'https://x/auth', message: 'Sign in', elicitationId: 'z' }] }));
    const asked = (await first) as unknown as Asked;
    assert.deepEqual(asked.inputRequests, { 'elicitation-1': { method: 'elicitation/create', params: { mode: 'url', url: 'https://x/auth', message: 'Sign in' } } });
    const retry = bridge.call(front({ requestState: asked.requestState, inputResponses: { 'elicitation-1': { action: 'accept' } } }));
    await until(() => last().calls.length === 2);
    assert.equal(sessions.length, 1, 'on the session the first attempt released');
    last().lastCall.resolve({ content: [{ type: 'text', text: 'in' }] });
    assert.deepEqual(await retry, { content: [{ type: 'text', text: 'in' }] });

    const again = bridge.call(front());
    await tick();
    last().lastCall.reject(new McpError(-32042, 'auth needed', { elicitations: [{ mode: 'url', url: 'https://x/auth', message: 'Sign in' }] }));
    const asked2 = (await again) as unknown as Asked;
    const key = Object.keys(asked2.inputRequests)[0]!;
    await expectCode(bridge.call(front({ requestState: asked2.requestState, inputResponses: { [key]: { action: 'decline' } } })), 'declined', /decline/);
  });

  it('relays progress under the client token only while a front request waits, before the result', async () => {
    const { bridge, last } = setup();
    const sent: Sent[] = [];
    const p = bridge.call(front({ sink: { progressToken: 'tok', notify: async (n) => { await tick(5); sent.push(n); } } }));
    await tick();
    last().lastCall.onprogress!({ progress: 1, total: 2 });
    last().lastCall.onprogress!({ progress: 2, total: 2 });
    last().lastCall.resolve({ content: [] });
    await p;
    assert.deepEqual(sent.map((n) => n.params), [{ progress: 1, total: 2, progressToken: 'tok' }, { progress: 2, total: 2, progressToken: 'tok' }]);
  });

  it('forwards legacy log lines only at or above the requested level', async () => {
    const { bridge, last } = setup();
    const sent: Sent[] = [];
    const p = bridge.call(front({ sink: { logLevel: 'warning', notify: async (n) => void sent.push(n) } }));
    await tick();
    last().holder!.onLog({ level: 'info', data: 'quiet' });
    last().holder!.onLog({ level: 'error', data: 'loud' });
    last().lastCall.resolve({ content: [] });
    await p;
    assert.deepEqual(sent.map((n) => n.params['data']), ['loud']);
  });

  it('shapes sampling answers for pre-2025-11-25 servers', async () => {
    const { bridge, last } = setup();
    const first = bridge.call(front());
    await tick();
    last().negotiatedVersion = '2025-06-18';
    const q = last().ask('sampling/createMessage', { messages: [], maxTokens: 5 });
    const { requestState } = (await first) as unknown as Asked;
    const answer = { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'one' }] };
    const retry = bridge.call(front({ requestState, inputResponses: { 'sampling-1': answer } }));
    assert.deepEqual((await q.answer)['content'], { type: 'text', text: 'one' });
    last().lastCall.resolve({ content: [] });
    await retry;
  });
});
