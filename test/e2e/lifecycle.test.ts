// Failures over time: legacy servers that crash, hang or withdraw their requests; interactions
// nobody resumes; a full pool; client cancellation; shutdown. None may hang or leak a process.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { alive, childPids, FIXTURE, startProxy } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';
import { textOf } from '../support/client.js';
import { sleep, until } from '../support/wait.js';

const ELICIT = { elicitation: {} };

describe('lifecycle', () => {
  it('fails a call whose legacy child exits, and replaces the child', async () => {
    const proxy = await startProxy(['--', process.execPath, FIXTURE]);
    try {
      const r = await rpc(proxy.url, 'tools/call', { name: 'crash', arguments: {} });
      assert.equal(r.body.error?.code, -32603);
      assert.match(r.body.error!.message, /legacy server session ended/);
      const next = await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'again' } });
      assert.equal(textOf(next.body.result), 'echo: again');
    } finally {
      await proxy.stop();
    }
  });

  it('tells a retry that its suspended call died with the legacy child', async () => {
    const proxy = await startProxy(['--', process.execPath, FIXTURE]);
    try {
      const first = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'crash-while-asking', arguments: {} }, { caps: ELICIT }));
      // The fixture exits 300 ms after asking.
      await until(() => /legacy session closed/.test(proxy.stderr()), 10_000, 'the legacy child exiting');
      const r = await rpc(
        proxy.url,
        'tools/call',
        { name: 'crash-while-asking', arguments: {}, requestState: first.requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: {} } } },
        { caps: ELICIT },
      );
      assert.equal(r.body.error?.code, -32603, JSON.stringify(r.body));
      assert.match(r.body.error!.message, /session ended/);
    } finally {
      await proxy.stop();
    }
  });

  it('cancels a call the legacy server never answers after --call-timeout', async () => {
    const proxy = await startProxy(['--call-timeout', '1', '--', process.execPath, FIXTURE]);
    try {
      const started = Date.now();
      const r = await rpc(proxy.url, 'tools/call', { name: 'hang', arguments: {} });
      assert.equal(r.body.error?.code, -32603);
      assert.match(r.body.error!.message, /did not answer within 1s/);
      assert.deepEqual(r.body.error?.data, { reason: 'call_timeout', action: 'stop' });
      assert.ok(Date.now() - started < 5000);
    } finally {
      await proxy.stop();
    }
  });

  it('ends a held call whose legacy server withdrew its request while suspended: the retry gets legacy_gave_up', async () => {
    const proxy = await startProxy(['--', process.execPath, FIXTURE]);
    try {
      const sent = performance.now();
      const first = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-with-timeout', arguments: { ms: 1000 } }, { caps: ELICIT }));
      await until(() => /legacy server withdrew its request/.test(proxy.stderr()), 10_000, 'the legacy server withdrawing its question');
      const seen = (performance.now() - sent) / 1000;
      const r = await rpc(
        proxy.url,
        'tools/call',
        {
          name: 'ask-with-timeout',
          arguments: { ms: 1000 },
          requestState: first.requestState,
          inputResponses: { 'elicitation-1': { action: 'accept', content: {} } },
        },
        { caps: ELICIT },
      );
      assert.equal(r.body.error?.code, -32602, JSON.stringify(r.body));
      const data = r.body.error!.data as { reason?: string; waitedSeconds?: number };
      assert.equal(data.reason, 'legacy_gave_up');
      // The proxy times the wait from the question's arrival to the withdrawal's, both within what
      // the test timed; a loaded machine may hand it the question late, so it can read less than
      // the legacy server's own second, but not nothing (to a tenth).
      const waited = Number(/gave up waiting for the answer after (\d+(?:\.\d)?) s/.exec(r.body.error!.message)?.[1]);
      assert.equal(data.waitedSeconds, waited, r.body.error!.message);
      assert.ok(waited > 0 && waited <= seen + 0.05, `waited ${waited} s, within the ${seen.toFixed(2)} s the test saw`);
    } finally {
      await proxy.stop();
    }
  });

  it('ends an interaction nobody resumes: its question is answered cancel, and its legacy child serves on', async () => {
    const proxy = await startProxy(['--interaction-ttl', '1', '--spare-sessions', '0', '--log-level', 'debug', '--', process.execPath, FIXTURE]);
    try {
      const before = new Set(await childPids(proxy.child.pid!));
      inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT }));
      const during = (await childPids(proxy.child.pid!)).filter((p) => !before.has(p));
      assert.equal(during.length, 1, 'the interactive call is parked on a pooled legacy child');
      await until(() => /interaction expired/.test(proxy.stderr()), 6000);
      const next = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT }));
      assert.ok(next.requestState);
      assert.ok(alive(during[0]!), 'the child was not discarded: other calls may be parked on it');
      assert.deepEqual(
        (await childPids(proxy.child.pid!)).filter((p) => !before.has(p)),
        during,
      );
    } finally {
      await proxy.stop();
    }
  });

  it('bounds the wait for a runner slot when the pool is full', async () => {
    const proxy = await startProxy(['--max-sessions', '1', '--session-wait', '1', '--', process.execPath, FIXTURE]);
    try {
      const held = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT }));
      // A tool not seen yet runs as the session's runner while it works: 3 s here.
      const working = rpc(proxy.url, 'tools/call', { name: 'slow', arguments: { ms: 3000 } }, { caps: ELICIT });
      await sleep(300);
      const started = Date.now();
      const blocked = await rpc(proxy.url, 'tools/call', { name: 'ask-if', arguments: { ask: true } }, { caps: ELICIT });
      assert.equal(blocked.body.error?.code, -32603);
      assert.match(blocked.body.error!.message, /no legacy session could run this call within 1s/);
      assert.ok(Date.now() - started < 4000);
      assert.equal(textOf((await working).body.result), 'slept 3000');
      // The suspended call is unharmed and frees the session when it completes.
      const done = await rpc(
        proxy.url,
        'tools/call',
        {
          name: 'ask-name',
          arguments: {},
          requestState: held.requestState,
          inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Zed' } } },
        },
        { caps: ELICIT },
      );
      assert.equal(textOf(done.body.result), 'Hello, Zed!');
      const after = await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'free' } });
      assert.equal(textOf(after.body.result), 'echo: free');
    } finally {
      await proxy.stop();
    }
  });

  it('cancels the legacy call when the client closes the stream', async () => {
    const proxy = await startProxy(['--spare-sessions', '0', '--log-level', 'debug', '--', process.execPath, FIXTURE]);
    try {
      const abort = new AbortController();
      const pending = rpc(proxy.url, 'tools/call', { name: 'slow', arguments: { ms: 30000 } }, { signal: abort.signal }).catch((e: Error) => e);
      // The control session and the call's own session, started and initialized.
      await until(async () => (await childPids(proxy.child.pid!)).length === 2 && /legacy session ready[\s\S]*legacy session ready/.test(proxy.stderr()));
      await sleep(200);
      abort.abort();
      assert.ok((await pending) instanceof Error);
      // The legacy server is told (notifications/cancelled) and its session, shared with any calls
      // parked there, serves on ...
      await until(() => /slow: cancelled \(the client cancelled the request\)/.test(proxy.stderr()), 8000);
      assert.equal((await childPids(proxy.child.pid!)).length, 2);
      // ... and the proxy keeps serving.
      const r = await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'still here' } });
      assert.equal(textOf(r.body.result), 'echo: still here');
    } finally {
      await proxy.stop();
    }
  });

  it('shuts down on SIGTERM without leaving legacy children behind', async () => {
    const proxy = await startProxy(['--', process.execPath, FIXTURE]);
    inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT }));
    const kids = await childPids(proxy.child.pid!);
    assert.ok(kids.length >= 2, 'control session and the interactive call');
    const code = await proxy.stop('SIGTERM');
    assert.equal(code, 0);
    await until(() => kids.every((k) => !alive(k)));
  });
});
