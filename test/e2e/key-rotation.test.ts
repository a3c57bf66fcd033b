// Key rotation across real proxy processes: a replay state sealed before the rotation still opens
// after it, new states use the new key, and dropping the old key invalidates only its states;
// instances that do not share a key are told to.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';

const OLD = Buffer.alloc(32, 11).toString('base64url');
const NEW = Buffer.alloc(32, 12).toString('base64url');
const CAPS = { elicitation: { form: {} } };
const kidOf = (state: string) => (JSON.parse(Buffer.from(state.split('.')[0]!, 'base64url').toString('utf8')) as { kid: string }).kid;
const lookup = (url: string, extra: Record<string, unknown> = {}) => rpc(url, 'tools/call', { name: 'lookup', arguments: {}, ...extra }, { caps: CAPS });

describe('state key rotation', () => {
  const running: ProxyProcess[] = [];
  const start = async (keys: string | undefined) => {
    const p = await startProxy(['--', process.execPath, FIXTURE], { MRTR_STATE_KEY: keys });
    running.push(p);
    return p;
  };
  after(async () => {
    await Promise.all(running.map((p) => p.stop()));
  });

  it('opens old states after the rotation, seals new ones with the new key, and names rotation when a key is gone', async () => {
    const before = await start(OLD);
    const r1 = inputRequired(await lookup(before.url));
    await before.stop();

    const rotated = await start(`${NEW},${OLD}`);
    const r2 = inputRequired(
      await lookup(rotated.url, { requestState: r1.requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: { city: 'Oslo' } } } }),
    );
    assert.match(String(r2.inputRequests['elicitation-2']?.params?.['message']), /^Street in Oslo/);
    assert.notEqual(kidOf(r2.requestState), kidOf(r1.requestState), 'the new state names the new key');
    const fresh = inputRequired(await lookup(rotated.url));
    await rotated.stop();

    const dropped = await start(NEW);
    const old = await lookup(dropped.url, {
      requestState: fresh.requestState,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { city: 'Rome' } } },
    });
    assert.ok(old.body.result, 'a state sealed with the new key opens without the old one');
    const stale = await lookup(dropped.url, {
      requestState: r1.requestState,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { city: 'Oslo' } } },
    });
    assert.equal(stale.body.error?.code, -32602);
    assert.match(stale.body.error!.message, /key rotation/);
    assert.equal((stale.body.error!.data as { reason: string }).reason, 'unauthentic');
  });

  it('tells a retry that reaches another instance without the same key that every instance needs it', async () => {
    // No key given: each instance generates its own, as two replicas started without one would.
    const a = await start(undefined);
    const b = await start(undefined);
    const first = inputRequired(await lookup(a.url));
    const retry = await lookup(b.url, {
      requestState: first.requestState,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { city: 'Oslo' } } },
    });
    assert.equal(retry.body.error?.code, -32602);
    assert.equal((retry.body.error!.data as { reason: string }).reason, 'unauthentic');
    assert.match(retry.body.error!.message, /Every proxy instance that may receive the retry needs the same --state-key/);
  });
});
