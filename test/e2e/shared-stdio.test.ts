// Over stdio nothing ties a legacy request to a call: a tool shares the legacy child freely once it
// has completed without asking, and one that asks (or is not known yet) runs as the child's one
// runner, parking beside the others. 16 concurrent pass-through calls use one pooled child (plus
// the control session's), also when they are the tool's first calls (the first finds out, the
// others wait for it); a tool that suddenly asks while another call runs beside it is refused with
// a clear error and leased exclusively from then on, so calling it again works.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { textOf } from '../support/client.js';
import { gate } from '../support/gate.js';
import { childPids, FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';
import { until } from '../support/wait.js';

const CAPS = { elicitation: { form: {} }, sampling: {} };

describe('calls sharing a legacy stdio child', () => {
  let proxy: ProxyProcess;
  const sessions = async () => {
    const body = (await (await fetch(new URL('/readyz', proxy.url))).json()) as {
      upstreams: Record<string, { sessions: { open: number; held: number; sharedCalls: number } }>;
    };
    return body.upstreams['default']!.sessions;
  };
  const call = (tool: string, args: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
    rpc(proxy.url, 'tools/call', { name: tool, arguments: args, ...extra }, { caps: CAPS });
  const resume = (tool: string, args: Record<string, unknown>, round: ReturnType<typeof inputRequired>, answer: Record<string, unknown>) =>
    call(tool, args, { requestState: round.requestState, inputResponses: { [Object.keys(round.inputRequests)[0]!]: answer } });

  before(async () => {
    proxy = await startProxy(['--spare-sessions', '0', '--', process.execPath, FIXTURE]);
  });
  after(async () => {
    await proxy?.stop();
  });

  it('starts no child per call for a cold burst of first calls: the first finds out, the others wait and share', { timeout: 30_000 }, async () => {
    const cold = await startProxy(['--spare-sessions', '0', '--', process.execPath, FIXTURE]);
    try {
      const results = await Promise.all(
        Array.from({ length: 16 }, (_, i) => rpc(cold.url, 'tools/call', { name: 'echo', arguments: { text: `cold ${i}` } }, { caps: CAPS })),
      );
      assert.deepEqual(
        results.map((r) => textOf(r.body.result)),
        Array.from({ length: 16 }, (_, i) => `echo: cold ${i}`),
      );
      // Idle children stay for --idle-session-ttl, so every child the burst started is still there:
      // the control session's, the pooled one that listed the tools for the calls' suspend modes
      // (still busy with those lists when the first call wanted a session of its own), and the
      // first call's. Each call leased on its own (before the wait) started 17.
      const children = await childPids(cold.child.pid!);
      assert.ok(children.length <= 3, `${children.length} legacy children`);
    } finally {
      await cold.stop();
    }
  });

  it('runs 16 concurrent pass-through calls on one legacy child', { timeout: 30_000 }, async () => {
    const open = gate();
    open.release();
    assert.equal(textOf((await call('gate', open.args)).body.result), 'released', 'gate has completed once without asking');
    const held = gate();
    const calls = Array.from({ length: 16 }, () => call('gate', held.args));
    await until(async () => (await sessions()).sharedCalls === 16 && held.entered() === 16, 10_000, '16 calls running in the child');
    const during = await sessions();
    const children = await childPids(proxy.child.pid!);
    assert.equal(during.open, 1, JSON.stringify(during));
    assert.ok(children.length <= 2, `${children.length} legacy children (the control session's and one pooled)`);
    held.release();
    const results = await Promise.all(calls);
    assert.deepEqual(
      results.map((r) => textOf(r.body.result)),
      Array(16).fill('released'),
    );
  });

  it('runs a tool seen for the first time, or one that asked, as the runner beside free calls, and parks it there', { timeout: 30_000 }, async () => {
    const round = inputRequired(await call('summarize', { text: 'long text' }));
    const parked = await sessions();
    assert.equal(parked.held, 0, 'summarize parks on a shared child');
    const done = await resume('summarize', { text: 'long text' }, round, { role: 'assistant', model: 'm1', content: { type: 'text', text: 'short' } });
    assert.equal(textOf(done.body.result), 'summary by m1: short');
    const held = gate();
    const running = call('gate', held.args);
    await until(async () => (await sessions()).sharedCalls === 1 && held.entered() === 1, 5000, 'the gate call running in the child');
    const again = inputRequired(await call('summarize', { text: 'more' }));
    const beside = await sessions();
    assert.deepEqual([beside.open, beside.held, beside.sharedCalls], [1, 0, 2], 'summarize parked beside the gate call, on its child');
    const second = await resume('summarize', { text: 'more' }, again, { role: 'assistant', model: 'm2', content: { type: 'text', text: 'ok' } });
    assert.equal(textOf(second.body.result), 'summary by m2: ok');
    held.release();
    assert.equal(textOf((await running).body.result), 'released');
  });

  it('refuses a question from a tool that suddenly asks while sharing, and leases it exclusively from then on', { timeout: 30_000 }, async () => {
    assert.equal(textOf((await call('ask-if', { ask: false })).body.result), 'did not ask');
    const held = gate();
    const running = call('gate', held.args);
    await until(async () => (await sessions()).sharedCalls === 1 && held.entered() === 1, 5000, 'the gate call running in the child');
    const refused = await call('ask-if', { ask: true });
    assert.equal(refused.body.result?.['isError'], true, JSON.stringify(refused.body));
    assert.match(textOf(refused.body.result), /cannot tell which of the 2 running calls on this legacy session sent this elicitation\/create/);
    assert.match(textOf(refused.body.result), /tool:(gate|ask-if), tool:(gate|ask-if) will get a legacy session of their own from now on; call again/);
    const round = inputRequired(await call('ask-if', { ask: true }));
    assert.equal((await sessions()).held, 1, 'ask-if now has a child of its own');
    const done = await resume('ask-if', { ask: true }, round, { action: 'accept', content: { v: 'yes' } });
    assert.equal(textOf(done.body.result), 'asked: yes');
    held.release();
    assert.equal(textOf((await running).body.result), 'released');
  });
});
