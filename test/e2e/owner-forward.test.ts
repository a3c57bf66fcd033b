// Held calls reachable from any instance: a retry that lands on an instance that does not hold the
// call is forwarded to the owner named in the state; an owner that is gone or restarted gives the
// client `owner_gone` within 2 s. Real proxy processes sharing a key, legacy fixture over stdio.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { textOf } from '../support/client.js';
import { freePort } from '../support/ports.js';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';

const CAPS = { elicitation: { form: {} } };
const call = (url: string, name: string, extra: Record<string, unknown> = {}) => rpc(url, 'tools/call', { name, arguments: {}, ...extra }, { caps: CAPS });
const named = (requestState: string) => ({ requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } } });

async function instance(port?: number): Promise<ProxyProcess & { port: number }> {
  const p = port ?? (await freePort());
  const proxy = await startProxy(['--port', String(p), '--advertise-url', `http://127.0.0.1:${p}`, '--', process.execPath, FIXTURE]);
  return { ...proxy, port: p };
}

describe('held calls across instances', () => {
  let a: ProxyProcess & { port: number };
  let b: ProxyProcess & { port: number };
  before(async () => {
    [a, b] = await Promise.all([instance(), instance()]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('forwards a retry that lands on a non-owner to the owner, which completes the call', async () => {
    const held = inputRequired(await call(a.url, 'ask-name'));
    const done = await call(b.url, 'ask-name', named(held.requestState));
    assert.equal(textOf(done.body.result), 'Hello, Ada!');
    const again = await call(a.url, 'ask-name', named(held.requestState));
    assert.deepEqual(again.body.error?.data, { reason: 'completed', action: 'resend' }, 'the owner completed it');
  });

  it('refuses a forward whose authentication does not hold', async () => {
    const held = inputRequired(await call(b.url, 'ask-name'));
    const forged = await rpc(
      a.url,
      'tools/call',
      { name: 'ask-name', arguments: {}, ...named(held.requestState) },
      { caps: CAPS, headers: { 'x-mrtr-forward-auth': `${Date.now()}.${'A'.repeat(43)}` } },
    );
    assert.equal(forged.status, 403);
  });

  it('gives owner_gone within 2 s when the owner restarted, and when it was killed; replayed calls carry on', async () => {
    const held = inputRequired(await call(a.url, 'ask-name'));
    await a.stop();
    a = await instance(a.port);
    const restarted = await call(b.url, 'ask-name', named(held.requestState));
    assert.equal(restarted.body.error?.code, -32602);
    assert.deepEqual(restarted.body.error?.data, { reason: 'owner_gone', action: 'resend' });
    assert.match(restarted.body.error!.message, /has restarted/);

    const held2 = inputRequired(await call(a.url, 'ask-name'));
    const replayed = inputRequired(await call(a.url, 'lookup'));
    await a.stop('SIGKILL');
    const started = Date.now();
    const gone = await call(b.url, 'ask-name', named(held2.requestState));
    assert.ok(Date.now() - started < 2000, `owner_gone took ${Date.now() - started} ms`);
    assert.deepEqual(gone.body.error?.data, { reason: 'owner_gone', action: 'resend' });
    assert.match(gone.body.error!.message, /cannot be reached/);
    const next = inputRequired(
      await call(b.url, 'lookup', {
        requestState: replayed.requestState,
        inputResponses: { 'elicitation-1': { action: 'accept', content: { city: 'Oslo' } } },
      }),
    );
    assert.ok(next.inputRequests['elicitation-2']);
    a = await instance(a.port);
  });
});
