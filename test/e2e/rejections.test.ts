// Everything a client can get wrong, over raw HTTP so the exact wire answer is asserted: bad
// requestState (tampered, expired, reused, foreign, misapplied), bad answers, undeclared
// capabilities, malformed requests.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { ALL_CAPS, inputRequired, post, rpc, PROTOCOL } from '../support/rpc.js';

const ASK = { name: 'ask-name', arguments: {} };
const ELICIT = { elicitation: {} };

describe('rejections', () => {
  let proxy: ProxyProcess;
  let twin: ProxyProcess; // same state key, different instance; modern clients only
  let stranger: ProxyProcess; // different state key
  before(async () => {
    [proxy, twin, stranger] = await Promise.all([
      startProxy(['--interaction-ttl', '2', '--', process.execPath, FIXTURE]),
      startProxy(['--legacy-clients', 'reject', '--', process.execPath, FIXTURE]),
      startProxy(['--', process.execPath, FIXTURE], { MRTR_STATE_KEY: Buffer.alloc(32, 9).toString('base64url') }),
    ]);
  });
  after(async () => {
    await Promise.all([proxy?.stop(), twin?.stop(), stranger?.stop()]);
  });

  const ask = async (url = proxy.url) => inputRequired(await rpc(url, 'tools/call', ASK, { caps: ELICIT }));
  const retry = (state: unknown, inputResponses: unknown, params: Record<string, unknown> = ASK, url = proxy.url) =>
    rpc(url, 'tools/call', { ...params, requestState: state, inputResponses }, { caps: ELICIT });
  const ACCEPT = { 'elicitation-1': { action: 'accept', content: { name: 'Eve' } } };

  it('rejects a tampered requestState', async () => {
    const { requestState } = await ask();
    const parts = requestState.split('.');
    const ct = parts[3]!;
    parts[3] = (ct[0] === 'A' ? 'B' : 'A') + ct.slice(1);
    const r = await retry(parts.join('.'), ACCEPT);
    assert.equal(r.body.error?.code, -32602);
    assert.match(r.body.error!.message, /failed authentication/);
    // The genuine state still works: the forgery consumed nothing.
    const ok = await retry(requestState, ACCEPT);
    assert.match(JSON.stringify(ok.body.result), /Hello, Eve!/);
  });

  it('refuses a malformed answer, naming the field, and keeps the round usable', async () => {
    const { requestState } = await ask();
    const wrong = await retry(requestState, { 'elicitation-1': { action: 'maybe' } });
    assert.equal(wrong.body.error?.code, -32602);
    assert.match(wrong.body.error!.message, /^inputResponses\['elicitation-1'\] is not a valid ElicitResult at 'action'/);
    assert.deepEqual(wrong.body.error!.data, { reason: 'answer_invalid', key: 'elicitation-1', action: 'fix' });
    const notObject = await retry(requestState, { 'elicitation-1': { action: 'accept', content: 'Eve' } });
    assert.match(notObject.body.error!.message, /is not a valid ElicitResult at 'content'/);
    const ok = await retry(requestState, ACCEPT);
    assert.match(JSON.stringify(ok.body.result), /Hello, Eve!/);
  });

  it('rejects garbage and non-string state as malformed', async () => {
    for (const bad of ['not-a-jwe', 42, '']) {
      const r = await retry(bad, ACCEPT);
      assert.equal(r.body.error?.code, -32602, JSON.stringify(r.body));
      assert.match(r.body.error!.message, /requestState/);
    }
  });

  it('accepts a state once: a replay is rejected', async () => {
    const { requestState } = await ask();
    const first = await retry(requestState, ACCEPT);
    assert.equal(first.body.result?.['resultType'], 'complete');
    const again = await retry(requestState, ACCEPT);
    assert.equal(again.body.error?.code, -32602);
    assert.match(again.body.error!.message, /already completed|already used/);
  });

  it('rejects a state presented on a different request', async () => {
    const { requestState } = await ask();
    const r = await retry(requestState, ACCEPT, { name: 'ask-name', arguments: { greeting: 'Yo' } });
    assert.equal(r.body.error?.code, -32602);
    assert.match(r.body.error!.message, /different request/);
    const other = await retry(requestState, ACCEPT, { name: 'ask-twice', arguments: {} });
    assert.match(other.body.error!.message, /different request/);
  });

  it('rejects a state issued by another instance or sealed with another key', async () => {
    const { requestState } = await ask();
    const foreign = await retry(requestState, ACCEPT, ASK, twin.url);
    assert.equal(foreign.body.error?.code, -32602);
    assert.match(
      foreign.body.error!.message,
      /no longer exists: it was suspended by another proxy instance or before this proxy restarted; send the request again without requestState/,
    );
    assert.deepEqual(foreign.body.error!.data, { reason: 'foreign_instance', action: 'resend' });
    const alien = await retry(requestState, ACCEPT, ASK, stranger.url);
    assert.equal(alien.body.error?.code, -32602);
    assert.match(alien.body.error!.message, /failed authentication/);
  });

  it('rejects an expired state after the interaction TTL and ends the interaction', async () => {
    const { requestState } = await ask();
    await new Promise((r) => setTimeout(r, 3200));
    const r = await retry(requestState, ACCEPT);
    assert.equal(r.body.error?.code, -32602);
    assert.match(r.body.error!.message, /expired/);
    assert.equal((r.body.error!.data as { action?: string }).action, 'resend');
  });

  it('answers wrong-shaped input with -32602 and keeps the round usable', async () => {
    const { requestState } = await ask();
    const wrong = await retry(requestState, { 'elicitation-1': { action: 'maybe' } });
    assert.equal(wrong.body.error?.code, -32602);
    assert.match(wrong.body.error!.message, /elicitation-1/);
    const wrapped = await retry(requestState, { 'elicitation-1': { method: 'elicitation/create', result: { action: 'accept' } } });
    assert.equal(wrapped.body.error?.code, -32602);
    const notObject = await retry(requestState, 'yes');
    assert.equal(notObject.body.error?.code, -32602, JSON.stringify(notObject.body));
    const ok = await retry(requestState, ACCEPT);
    assert.match(JSON.stringify(ok.body.result), /Hello, Eve!/);
  });

  it('asks again for missing answers and ignores extra keys', async () => {
    const first = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-all', arguments: {} }, { caps: ALL_CAPS }));
    const partial = await rpc(
      proxy.url,
      'tools/call',
      {
        name: 'ask-all',
        arguments: {},
        requestState: first.requestState,
        inputResponses: { 'elicitation-1': { action: 'accept', content: { color: 'blue' } }, bogus: { x: 1 } },
      },
      { caps: ALL_CAPS },
    );
    const again = inputRequired(partial);
    assert.deepEqual(Object.keys(again.inputRequests).sort(), ['roots-3', 'sampling-2']);
    assert.notEqual(again.requestState, first.requestState);
    const done = await rpc(
      proxy.url,
      'tools/call',
      {
        name: 'ask-all',
        arguments: {},
        requestState: again.requestState,
        inputResponses: { 'sampling-2': { role: 'assistant', content: { type: 'text', text: 'yo' }, model: 'm2' }, 'roots-3': { roots: [] } },
      },
      { caps: ALL_CAPS },
    );
    assert.match(JSON.stringify(done.body.result), /color=blue model=m2 said=yo roots=/);
  });

  it('refuses a legacy request for a capability the request did not declare (-32021)', async () => {
    const r = await rpc(proxy.url, 'tools/call', { name: 'rogue-elicit', arguments: {} }, { caps: {} });
    assert.equal(r.body.error?.code, -32021, JSON.stringify(r.body));
    assert.deepEqual((r.body.error!.data as { requiredCapabilities: unknown }).requiredCapabilities, { elicitation: { form: {} } });
    assert.deepEqual(r.body.error!.data, { reason: 'capability_undeclared', action: 'stop', requiredCapabilities: { elicitation: { form: {} } } });
    assert.match(r.body.error!.message, /elicitation/);
  });

  it("checks each round against that round's declared capabilities", async () => {
    const caps = { elicitation: {}, sampling: {} };
    const first = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'elicit-then-sample', arguments: {} }, { caps }));
    const second = await rpc(
      proxy.url,
      'tools/call',
      { name: 'elicit-then-sample', arguments: {}, requestState: first.requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: {} } } },
      { caps: { elicitation: {} } },
    );
    assert.equal(second.body.error?.code, -32021, JSON.stringify(second.body));
    assert.deepEqual((second.body.error!.data as { requiredCapabilities: unknown }).requiredCapabilities, { sampling: {} });
  });

  it('rejects URL elicitation when only form mode is declared', async () => {
    const r = await rpc(proxy.url, 'tools/call', { name: 'ask-url', arguments: {} }, { caps: { elicitation: { form: {}, url: {} } } });
    inputRequired(r);
    const formOnly = await rpc(proxy.url, 'tools/call', { name: 'rogue-elicit', arguments: {} }, { caps: { elicitation: { url: {} } } });
    assert.equal(formOnly.body.error?.code, -32021);
  });

  it('answers malformed JSON with a parse error', async () => {
    const r = await post(proxy.url, '{"jsonrpc":"2.0",', {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      'mcp-method': 'tools/list',
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.error?.code, -32700);
  });

  it('enforces the 2026-07-28 envelope and headers', async () => {
    const noMeta = await post(proxy.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }), {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      'mcp-method': 'tools/list',
    });
    assert.equal(noMeta.status, 400);
    assert.equal(noMeta.body.error?.code, -32602);
    const mismatch = await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: { 'mcp-name': 'other' } });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.error?.code, -32020);
    const version = await rpc(proxy.url, 'tools/list', {}, { headers: { 'mcp-protocol-version': '2099-01-01' } });
    assert.equal(version.status, 400);
    assert.ok([-32020, -32022].includes(version.body.error!.code));
  });

  it('rejects legacy initialize naming the supported version with --legacy-clients reject', async () => {
    const r = await post(
      twin.url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
      }),
      { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    );
    assert.equal(r.body.error?.code, -32022);
    assert.deepEqual((r.body.error!.data as { supported: string[] }).supported, ['2026-07-28']);
  });
});
