// Replay mode end to end: the real proxy binary in front of the legacy fixture over stdio. A
// replayed call holds no legacy session while the user thinks, survives a restart of the proxy,
// outlives the legacy server's own request timeout, and asks again when the server asks anew.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { textOf } from '../support/client.js';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';
import { sleep, until } from '../support/wait.js';

const CAPS = { elicitation: { form: {} } };
const accept = (content: Record<string, string>) => ({ action: 'accept', content });

async function call(url: string, name: string, extra: Record<string, unknown> = {}, args: Record<string, unknown> = {}) {
  return rpc(url, 'tools/call', { name, arguments: args, ...extra }, { caps: CAPS });
}

describe('replay mode over stdio', () => {
  let proxy: ProxyProcess;
  const args = ['--max-sessions', '1', '--spare-sessions', '0', '--session-wait', '1', '--log-level', 'debug', '--', process.execPath, FIXTURE];
  before(async () => {
    proxy = await startProxy(args);
  });
  after(async () => {
    await proxy?.stop();
  });

  it('auto replays a read-only tool: three rounds, wording that changes every run, one legacy session for many waiting users', async () => {
    const r1 = inputRequired(await call(proxy.url, 'lookup'));
    assert.match(String(r1.inputRequests['elicitation-1']?.params?.['message']), /^City\?/);
    // With --max-sessions 1 a held call would pin the only session; these wait on none.
    const other = inputRequired(await call(proxy.url, 'lookup'));
    assert.ok(other.requestState);
    const r2 = inputRequired(await call(proxy.url, 'lookup', { requestState: r1.requestState, inputResponses: { 'elicitation-1': accept({ city: 'Oslo' }) } }));
    assert.deepEqual(Object.keys(r2.inputRequests), ['elicitation-2']);
    assert.match(String(r2.inputRequests['elicitation-2']?.params?.['message']), /^Street in Oslo\?/);
    const r3 = inputRequired(
      await call(proxy.url, 'lookup', { requestState: r2.requestState, inputResponses: { 'elicitation-2': accept({ street: 'Storgata' }) } }),
    );
    assert.deepEqual(Object.keys(r3.inputRequests), ['elicitation-3']);
    const done = await call(proxy.url, 'lookup', { requestState: r3.requestState, inputResponses: { 'elicitation-3': accept({ number: '7' }) } });
    assert.match(textOf(done.body.result), /^Oslo, Storgata 7 \(run \d+\)$/);
    assert.match(proxy.stderr(), /suspend mode chosen","method":"tools\/call","mode":"replay","target":"lookup".*readOnlyHint/);
  });

  it('refuses a second use of a replay state with `consumed`', async () => {
    const r1 = inputRequired(await call(proxy.url, 'lookup'));
    const retry = { requestState: r1.requestState, inputResponses: { 'elicitation-1': accept({ city: 'Rome' }) } };
    inputRequired(await call(proxy.url, 'lookup', retry));
    const again = await call(proxy.url, 'lookup', retry);
    assert.equal(again.body.error?.code, -32602);
    assert.deepEqual(again.body.error?.data, { reason: 'consumed', action: 'stop' });
  });

  it('asks the client the new question when the rerun asks something else', async () => {
    const r1 = inputRequired(await call(proxy.url, 'ask-changing'));
    assert.deepEqual(Object.keys(r1.inputRequests['elicitation-1']?.params?.['requestedSchema'] as object), ['type', 'properties', 'required']);
    const r2 = inputRequired(
      await call(proxy.url, 'ask-changing', { requestState: r1.requestState, inputResponses: { 'elicitation-1': accept({ color: 'red' }) } }),
    );
    assert.equal(r2.inputRequests['elicitation-1']?.params?.['message'], 'shape?');
    const done = await call(proxy.url, 'ask-changing', { requestState: r2.requestState, inputResponses: { 'elicitation-1': accept({ shape: 'round' }) } });
    assert.equal(textOf(done.body.result), 'shape=round');
  });

  it('holds a tool without annotations (auto): the retry resumes the same legacy call', async () => {
    const r1 = inputRequired(await call(proxy.url, 'ask-name'));
    const done = await call(proxy.url, 'ask-name', { requestState: r1.requestState, inputResponses: { 'elicitation-1': accept({ name: 'Ada' }) } });
    assert.equal(textOf(done.body.result), 'Hello, Ada!');
    assert.match(proxy.stderr(), /"mode":"hold","target":"ask-name"/);
  });

  it('survives a restart of the proxy with the same key', async () => {
    const r1 = inputRequired(await call(proxy.url, 'lookup'));
    await proxy.stop();
    proxy = await startProxy(args);
    const r2 = inputRequired(await call(proxy.url, 'lookup', { requestState: r1.requestState, inputResponses: { 'elicitation-1': accept({ city: 'Lima' }) } }));
    assert.match(String(r2.inputRequests['elicitation-2']?.params?.['message']), /^Street in Lima\?/);
  });
});

describe('replay only where it is safe', () => {
  let proxy: ProxyProcess;
  let forced: ProxyProcess;
  // One session each, so that every run meets the same legacy process (ask-live counts its runs).
  const one = ['--max-sessions', '1', '--spare-sessions', '0', '--log-level', 'debug'];
  before(async () => {
    proxy = await startProxy([...one, '--', process.execPath, FIXTURE]);
    forced = await startProxy([...one, '--suspend', 'replay', '--', process.execPath, FIXTURE]);
  });
  after(async () => {
    await proxy?.stop();
    await forced?.stop();
  });

  const slotsOf = (r: ReturnType<typeof inputRequired>) =>
    (r.inputRequests['elicitation-1']!.params!['requestedSchema'] as { properties: { slot: { enum: string[] } } }).properties.slot.enum;

  it('a call whose choices change on every run completes in two rounds, held from its second run; auto then holds the tool', async () => {
    const r1 = inputRequired(await call(proxy.url, 'ask-live'));
    const [first] = slotsOf(r1);
    // The second run offers other slots: the record cannot answer them, and the run is held instead of let go.
    const r2 = inputRequired(
      await call(proxy.url, 'ask-live', { requestState: r1.requestState, inputResponses: { 'elicitation-1': accept({ slot: first! }) } }),
    );
    const [second] = slotsOf(r2);
    assert.notEqual(second, first);
    const done = await call(proxy.url, 'ask-live', { requestState: r2.requestState, inputResponses: { 'elicitation-1': accept({ slot: second! }) } });
    assert.equal(textOf(done.body.result), `booked ${second} (run 2)`);
    assert.match(proxy.stderr(), /its questions change between runs: its calls are held from now on","method":"tools\/call","target":"ask-live"/);
    // The next call is held from the start: one round, one run.
    const next = inputRequired(await call(proxy.url, 'ask-live'));
    assert.match(proxy.stderr(), /"mode":"hold","target":"ask-live",[^\n]*"why":"its questions changed when it ran again"/);
    const [third] = slotsOf(next);
    const booked = await call(proxy.url, 'ask-live', { requestState: next.requestState, inputResponses: { 'elicitation-1': accept({ slot: third! }) } });
    assert.equal(textOf(booked.body.result), `booked ${third} (run 3)`);
  });

  it('--suspend replay: the changed call still ends in two rounds, and the tool is replayed again', async () => {
    const r1 = inputRequired(await call(forced.url, 'ask-live'));
    const r2 = inputRequired(
      await call(forced.url, 'ask-live', { requestState: r1.requestState, inputResponses: { 'elicitation-1': accept({ slot: slotsOf(r1)[0]! }) } }),
    );
    const done = await call(forced.url, 'ask-live', { requestState: r2.requestState, inputResponses: { 'elicitation-1': accept({ slot: slotsOf(r2)[0]! }) } });
    assert.match(textOf(done.body.result), /^booked slot-2a/);
    inputRequired(await call(forced.url, 'ask-live'));
    assert.doesNotMatch(forced.stderr(), /its calls are held from now on/);
    assert.equal(forced.stderr().match(/"mode":"replay","target":"ask-live"/g)?.length, 2);
  });

  it('relays each log line and progress step once, though every run says them all again', async () => {
    const meta = { 'io.modelcontextprotocol/logLevel': 'info', progressToken: 'p' };
    const chatty = (extra: Record<string, unknown> = {}) => rpc(proxy.url, 'tools/call', { name: 'ask-chatty', arguments: {}, ...extra }, { caps: CAPS, meta });
    const heard = (r: Awaited<ReturnType<typeof chatty>>) =>
      r.notifications.map((n) => (n.method === 'notifications/progress' ? `progress ${String(n.params?.['progress'])}` : String(n.params?.['data'])));
    const one = await chatty();
    const r1 = inputRequired(one);
    const two = await chatty({ requestState: r1.requestState, inputResponses: { 'elicitation-1': accept({ city: 'Oslo' }) } });
    const r2 = inputRequired(two);
    const three = await chatty({ requestState: r2.requestState, inputResponses: { 'elicitation-2': accept({ street: 'Storgata' }) } });
    assert.equal(textOf(three.body.result), 'Oslo, Storgata');
    assert.deepEqual(
      [heard(one), heard(two), heard(three)],
      [
        ['looking up cities', 'progress 1'],
        ['looking up streets in Oslo', 'progress 2'],
        ['found it', 'progress 3'],
      ],
    );
  });
});

describe('think time longer than the legacy server request timeout', () => {
  let proxy: ProxyProcess;
  let held: ProxyProcess;
  before(async () => {
    proxy = await startProxy(['--suspend', 'replay', '--', process.execPath, FIXTURE]);
    held = await startProxy(['--suspend', 'hold', '--', process.execPath, FIXTURE]);
  });
  after(async () => {
    await proxy?.stop();
    await held?.stop();
  });

  it('a held call gets legacy_gave_up, saying after how many seconds, never a silent re-run', async () => {
    const r1 = inputRequired(await call(held.url, 'ask-with-timeout', {}, { ms: 1000 }));
    await until(() => /legacy server withdrew its request/.test(held.stderr()), 10_000, 'the legacy server withdrawing its question');
    const retry = await call(
      held.url,
      'ask-with-timeout',
      { requestState: r1.requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: {} } } },
      { ms: 1000 },
    );
    assert.equal(retry.body.error?.code, -32602);
    assert.match(retry.body.error!.message, /the legacy server gave up waiting for the answer after 1(\.\d)? s/);
    assert.deepEqual({ ...(retry.body.error!.data as object), waitedSeconds: 1 }, { reason: 'legacy_gave_up', action: 'resend', waitedSeconds: 1 });
  });

  it('a replayed call completes although the user answers after the legacy server would have given up', async () => {
    const r1 = inputRequired(await call(proxy.url, 'ask-with-timeout', {}, { ms: 500 }));
    await sleep(1200);
    const done = await call(
      proxy.url,
      'ask-with-timeout',
      { requestState: r1.requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: {} } } },
      { ms: 500 },
    );
    assert.equal(textOf(done.body.result), 'answered: accept');
  });
});
