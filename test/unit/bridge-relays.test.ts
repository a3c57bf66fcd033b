// The bridge's failures and relays without I/O: legacy errors, timeouts, cancellation, URL
// elicitation, progress, logs and sampling shapes, against a simulated legacy session.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { FrontCall } from '../../src/bridge/bridge.js';
import { UpstreamError } from '../../src/protocol/errors.js';
import { NO_TELEMETRY } from '../../src/telemetry/ports.js';
import { expectCode, front, frontWith, setup, type Asked, type Sent } from '../support/bridge-setup.js';
import { tick, until } from '../support/fake-session.js';

describe('Bridge: failures and relays', () => {
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
    last().lastCall.reject(
      new McpError(-32042, 'auth needed', { elicitations: [{ mode: 'url', url: 'https://x/auth', message: 'Sign in', elicitationId: 'z' }] }),
    );
    const asked = (await first) as unknown as Asked;
    assert.deepEqual(asked.inputRequests, {
      'elicitation-1': { method: 'elicitation/create', params: { mode: 'url', url: 'https://x/auth', message: 'Sign in' } },
    });
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
    const p = bridge.call(
      front({
        sink: {
          progressToken: 'tok',
          notify: async (n) => {
            await tick(5);
            sent.push(n);
          },
        },
      }),
    );
    await tick();
    last().lastCall.onprogress!({ progress: 1, total: 2 });
    last().lastCall.onprogress!({ progress: 2, total: 2 });
    last().lastCall.resolve({ content: [] });
    await p;
    assert.deepEqual(
      sent.map((n) => n.params),
      [
        { progress: 1, total: 2, progressToken: 'tok' },
        { progress: 2, total: 2, progressToken: 'tok' },
      ],
    );
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
    assert.deepEqual(
      sent.map((n) => n.params['data']),
      ['loud'],
    );
  });

  it('keeps what the server sends between rounds for the retry, which hears it before anything else', async () => {
    const { bridge, last } = setup();
    const sent: Sent[] = [];
    const sink = { logLevel: 'info', progressToken: 'p2', notify: async (n: Sent) => void sent.push(n) };
    const first = bridge.call(front({ capabilities: { elicitation: { form: {} } } }));
    await tick();
    const q = last().ask('elicitation/create', { message: 'name?', requestedSchema: { type: 'object', properties: {} } });
    const { requestState } = (await first) as unknown as Asked;
    // The client thinks: no front request is attached.
    last().holder!.onLog({ level: 'info', data: 'waiting for the user' });
    last().holder!.onLog({ level: 'debug', data: 'below the retry level' });
    last().lastCall.onprogress!({ progress: 1 });
    const retry = bridge.call(
      front({ capabilities: { elicitation: { form: {} } }, requestState, inputResponses: { 'elicitation-1': { action: 'decline' } }, sink }),
    );
    await q.answer;
    last().holder!.onLog({ level: 'info', data: 'answered' });
    last().lastCall.resolve({ content: [] });
    await retry;
    assert.deepEqual(
      sent.map((n) => [n.method, n.params['data'] ?? n.params['progressToken']]),
      [
        ['notifications/message', 'waiting for the user'],
        ['notifications/progress', 'p2'],
        ['notifications/message', 'answered'],
      ],
    );
  });

  it('counts what cannot be delivered: a refused send, an invalid level, what waited for a retry that never came', async () => {
    const drops: string[] = [];
    const telemetry = { ...NO_TELEMETRY, notificationDropped: (method: string, reason: string) => void drops.push(`${method} ${reason}`) };
    const { bridge, last, clock } = setup({ telemetry, ttlMs: 1000 });
    const refusing = { logLevel: 'debug', notify: async () => Promise.reject(new Error('stream closed')) };
    const first = bridge.call(front({ capabilities: { elicitation: { form: {} } }, sink: refusing }));
    await tick();
    last().holder!.onLog({ level: 'info', data: 'refused' });
    last().holder!.onLog({ level: 'verbose', data: 'no such level' });
    last().ask('elicitation/create', { message: 'name?', requestedSchema: { type: 'object', properties: {} } });
    await first;
    last().holder!.onLog({ level: 'info', data: 'nobody comes back' });
    clock.advance(1001);
    bridge.expire();
    await tick();
    assert.deepEqual(drops.sort(), ['notifications/message call_ended', 'notifications/message invalid', 'notifications/message send_failed']);
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
