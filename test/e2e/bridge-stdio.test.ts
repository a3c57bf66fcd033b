// The proxy binary in front of a v1-SDK legacy server over stdio: what only a stdio child has.
// The bridge behaviours common to every transport are in test/contract.
// run-alone: a child spins a core for its whole life, and a round's close is timed by whether the
// child reads as waiting, which a neighbour's load would blur.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { connectClient, textOf } from '../support/client.js';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { ALL_CAPS, inputRequired, rpc } from '../support/rpc.js';

describe('bridge over a stdio legacy server', () => {
  let proxy: ProxyProcess;
  let client: Client;
  before(async () => {
    // A wide window: the round must be kept open by the process check, not closed by the window on a loaded machine.
    proxy = await startProxy(['--gather-window', '500', '--env', 'MRTR_TEST_MARKER', '--', process.execPath, FIXTURE], {
      MRTR_TEST_MARKER: 'passed-through',
      MRTR_TEST_OTHER: 'kept',
    });
    client = await connectClient(proxy.url);
  });
  after(async () => {
    await client?.close();
    await proxy?.stop();
  });

  it('gives the stdio child the variables --env names, not the whole proxy environment', async () => {
    assert.equal(textOf(await client.callTool({ name: 'env', arguments: { name: 'MRTR_TEST_MARKER' } })), 'MRTR_TEST_MARKER=passed-through');
    assert.equal(textOf(await client.callTool({ name: 'env', arguments: { name: 'MRTR_TEST_OTHER' } })), 'MRTR_TEST_OTHER=<unset>');
  });

  it('keeps one round open while the legacy child is still running between two requests it sends together', async () => {
    // 8 ms of CPU between the two sends: far past the 1 ms quiet period, well within the window.
    const params = { name: 'ask-around-work', arguments: { ms: 8 } };
    const first = (await client.callTool(params as never, { allowInputRequired: true } as never)) as unknown as {
      resultType?: string;
      inputRequests?: Record<string, unknown>;
      requestState?: string;
    };
    assert.equal(first.resultType, 'input_required', JSON.stringify(first));
    assert.deepEqual(Object.keys(first.inputRequests ?? {}).sort(), ['elicitation-1', 'elicitation-2']);
    const answers = { 'elicitation-1': { action: 'accept', content: { a: 'x' } }, 'elicitation-2': { action: 'accept', content: { b: 'y' } } };
    const done = await client.callTool(
      { ...params, requestState: first.requestState, inputResponses: answers } as never,
      { allowInputRequired: true } as never,
    );
    assert.equal(textOf(done), 'a=x b=y');
  });
});

describe('bridge over a stdio legacy server that keeps a thread busy beside its event loop', () => {
  // A worker thread spinning for the child's whole life: the child never reads as waiting, so its
  // rounds close by timing once its main thread waits, long before this wide window.
  const BUSY = `import { Worker } from 'node:worker_threads'; new Worker('for (;;) {}', { eval: true }).unref();`;
  let proxy: ProxyProcess;
  before(async () => {
    proxy = await startProxy(['--gather-window', '5000', '--', process.execPath, '--import', `data:text/javascript,${encodeURIComponent(BUSY)}`, FIXTURE]);
  });
  after(async () => {
    await proxy?.stop();
  });

  it('closes a round once the child is quiet, not at the window, with what it sent together', async () => {
    const t0 = Date.now();
    const one = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ALL_CAPS }));
    assert.deepEqual(Object.keys(one.inputRequests), ['elicitation-1']);
    const all = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-all', arguments: {} }, { caps: ALL_CAPS }));
    assert.deepEqual(Object.keys(all.inputRequests).sort(), ['elicitation-1', 'roots-3', 'sampling-2']);
    assert.ok(Date.now() - t0 < 4000, `two rounds took ${Date.now() - t0} ms against a 5000 ms window`);
  });
});
