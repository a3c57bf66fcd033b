// The bridge's failures and relays without I/O: legacy errors, timeouts, cancellation, URL
// elicitation, progress, logs and sampling shapes, against a simulated legacy session.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { FrontCall } from '../../src/bridge/bridge.js';
import { UpstreamError } from '../../src/protocol/errors.js';
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
