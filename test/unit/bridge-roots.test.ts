// The bridge's roots rounds without I/O: for a legacy server that reads roots at initialize, a
// client that declares roots is asked for them before its call is sent, and the call runs on a
// session bound to exactly those roots. Fake sessions play the server (test/support/fake-session.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { FrontCall } from '../../src/bridge/bridge.js';
import { ROOTS_ROUND_KEY } from '../../src/protocol/roots.js';
import { expectCode, front, setup, type Asked } from '../support/bridge-setup.js';
import { tick, until } from '../support/fake-session.js';

const A = [{ uri: 'file:///a', name: 'A' }];
const B = [{ uri: 'file:///b' }];

function asking() {
  const t = setup();
  t.upstream.asksRootsOutsideCalls = true;
  return t;
}

const retry = (asked: Asked, inputResponses: unknown, o: Partial<FrontCall> = {}) => front({ requestState: asked.requestState, inputResponses, ...o });

describe('Bridge: roots round before the call', () => {
  it('asks a client that declares roots first, then runs the call on a session bound to its roots', async () => {
    const { bridge, sessions, servedRoots, last, pool } = asking();
    const asked = (await bridge.call(front())) as unknown as Asked;
    assert.equal(asked.resultType, 'input_required');
    assert.deepEqual(asked.inputRequests, { [ROOTS_ROUND_KEY]: { method: 'roots/list' } });
    assert.equal(sessions.length, 0, 'nothing is sent upstream before the roots are known');
    assert.equal(bridge.suspendedCount, 1);

    const done = bridge.call(retry(asked, { [ROOTS_ROUND_KEY]: { roots: [{ uri: 'file:///a', name: 'A', _meta: { x: 1 } }] } }));
    await until(() => sessions.length === 1 && last().calls.length === 1);
    assert.deepEqual(servedRoots.get(last()), A, 'the session serves exactly the client roots (uri and name)');
    assert.equal(last().lastCall.method, 'tools/call');
    last().lastCall.resolve({ content: [{ type: 'text', text: 'ok' }] });
    assert.deepEqual(await done, { content: [{ type: 'text', text: 'ok' }] });
    assert.equal(pool.stats().held, 0);
  });

  it('never shares sessions across different roots, and reuses one for the same roots', async () => {
    const { bridge, sessions, servedRoots, last } = asking();
    const run = async (roots: typeof A | typeof B) => {
      const asked = (await bridge.call(front())) as unknown as Asked;
      const done = bridge.call(retry(asked, { [ROOTS_ROUND_KEY]: { roots } }));
      await until(() => sessions.length > 0 && JSON.stringify(servedRoots.get(last())) === JSON.stringify(roots) && last().calls.length === 1);
      last().lastCall.resolve({ content: [] });
      await done;
    };
    await run(A);
    await run(B);
    assert.equal(sessions.length, 2);
    assert.deepEqual(servedRoots.get(sessions[0]!), A);
    assert.deepEqual(servedRoots.get(sessions[1]!), B);
    const asked = (await bridge.call(front())) as unknown as Asked;
    const done = bridge.call(retry(asked, { [ROOTS_ROUND_KEY]: { roots: A } }));
    await until(() => sessions[0]!.calls.length === 2);
    assert.equal(sessions.length, 2, 'the session bound to A is reused');
    sessions[0]!.lastCall.resolve({ content: [] });
    await done;
  });

  it('does not ask again in later rounds: the roots ride sealed in requestState', async () => {
    const { bridge, sessions, servedRoots, last } = asking();
    const caps = { elicitation: { form: {}, url: {} }, roots: {} };
    const asked = (await bridge.call(front({ capabilities: caps }))) as unknown as Asked;
    const second = bridge.call(retry(asked, { [ROOTS_ROUND_KEY]: { roots: A } }, { capabilities: caps }));
    await until(() => sessions.length === 1 && last().calls.length === 1);
    // A legacy -32042 makes the call start again on a new lease once the user has been to the URL:
    // that lease is taken with the roots read from the sealed state.
    last().lastCall.reject(new McpError(-32042, 'auth needed', { elicitations: [{ mode: 'url', url: 'https://x/auth', message: 'Sign in' }] }));
    const url = (await second) as unknown as Asked;
    assert.deepEqual(Object.keys(url.inputRequests), ['elicitation-1'], 'no second roots round');
    const third = bridge.call(retry(url, { 'elicitation-1': { action: 'accept' } }, { capabilities: caps }));
    await until(() => sessions.reduce((n, s) => n + s.calls.length, 0) === 2);
    assert.equal(sessions.length, 1, 'the session bound to the same roots is taken again');
    assert.deepEqual(servedRoots.get(last()), A);
    last().lastCall.resolve({ content: [] });
    assert.deepEqual(await third, { content: [] });
  });

  it('asks again when the retry does not answer, and each roots state is good for one retry', async () => {
    const { bridge, sessions } = asking();
    const asked = (await bridge.call(front())) as unknown as Asked;
    const again = (await bridge.call(retry(asked, { stray: 1 }))) as unknown as Asked;
    assert.deepEqual(again.inputRequests, { [ROOTS_ROUND_KEY]: { method: 'roots/list' } });
    assert.notEqual(again.requestState, asked.requestState);
    await expectCode(bridge.call(retry(asked, { [ROOTS_ROUND_KEY]: { roots: A } })), 'interaction_gone', /already used/);
    assert.equal(sessions.length, 0);
  });

  it('rejects a malformed or oversized roots answer without consuming the round', async () => {
    const { bridge, sessions, last } = asking();
    const asked = (await bridge.call(front())) as unknown as Asked;
    await expectCode(bridge.call(retry(asked, { [ROOTS_ROUND_KEY]: { roots: [{ uri: 'https://x' }] } })), 'input_invalid', /roots-0.*ListRootsResult/);
    const huge = [{ uri: `file:///${'x'.repeat(5000)}` }];
    await expectCode(bridge.call(retry(asked, { [ROOTS_ROUND_KEY]: { roots: huge } })), 'input_invalid', /too large/);
    const done = bridge.call(retry(asked, { [ROOTS_ROUND_KEY]: { roots: [] } }));
    await until(() => sessions.length === 1 && last().calls.length === 1);
    last().lastCall.resolve({ content: [] });
    assert.deepEqual(await done, { content: [] });
  });

  it('asks no roots round of a client without roots, nor for a server that never asked outside calls', async () => {
    for (const t of [asking(), setup()]) {
      const caps = t.upstream.asksRootsOutsideCalls ? { elicitation: {} } : { roots: {} };
      const p = t.bridge.call(front({ capabilities: caps }));
      await until(() => t.sessions.length === 1 && t.last().calls.length === 1);
      assert.equal(t.servedRoots.get(t.last()), undefined, 'the session serves the operator roots');
      t.last().lastCall.resolve({ content: [] });
      assert.deepEqual(await p, { content: [] });
    }
  });

  it('tells its observers which calls had the roots round, with the roots it gave', async () => {
    const started: Array<{ rootsRound?: true; roots?: readonly unknown[] | undefined }> = [];
    const observer = { onStart: (e: (typeof started)[number]) => void started.push(e), onRound() {}, onAnswers() {}, onEnd() {} };
    const t = setup({ observer });
    t.upstream.asksRootsOutsideCalls = true;
    const asked = (await t.bridge.call(front())) as unknown as Asked;
    assert.equal(started.length, 0, 'the roots round is not the call');
    const done = t.bridge.call(retry(asked, { [ROOTS_ROUND_KEY]: { roots: A } }));
    await until(() => t.sessions.length === 1 && t.last().calls.length === 1);
    t.last().lastCall.resolve({ content: [] });
    await done;
    const plain = t.bridge.call(front({ capabilities: { elicitation: {} } }));
    await until(() => t.sessions.reduce((n, s) => n + s.calls.length, 0) === 2);
    t.last().lastCall.resolve({ content: [] });
    await plain;
    assert.deepEqual(
      started.map((e) => [e.rootsRound, e.roots]),
      [
        [true, A],
        [undefined, undefined],
      ],
    );
  });

  it('asks the roots round when the session opened for the call is the first to show it', async () => {
    const t = setup({ onConnect: () => (t.upstream.asksRootsOutsideCalls = true) });
    const asked = (await t.bridge.call(front())) as unknown as Asked;
    assert.deepEqual(asked.inputRequests, { [ROOTS_ROUND_KEY]: { method: 'roots/list' } });
    assert.equal(t.sessions[0]!.calls.length, 0, 'the unbound session was given back unused');
    assert.equal(t.pool.stats().held, 0);
  });
});

describe('Bridge: roots/list during a call', () => {
  it('is one input round for a client that declares roots, as before', async () => {
    const { bridge, last } = setup({ operatorRoots: B });
    const first = bridge.call(front());
    await tick();
    const q = last().ask('roots/list');
    const asked = (await first) as unknown as Asked;
    assert.deepEqual(asked.inputRequests, { 'roots-1': { method: 'roots/list' } });
    const done = bridge.call(retry(asked, { 'roots-1': { roots: A } }));
    assert.deepEqual(await q.answer, { roots: A });
    last().lastCall.resolve({ content: [] });
    await done;
  });

  it('gets the operator roots for a client without roots, with no round', async () => {
    const { bridge, last } = setup({ operatorRoots: B });
    const p = bridge.call(front({ capabilities: {} }));
    await tick();
    assert.deepEqual(await last().ask('roots/list').answer, { roots: B });
    last().lastCall.resolve({ content: [] });
    assert.deepEqual(await p, { content: [] });
  });

  it('is still -32021 for a client without roots when the operator gave none', async () => {
    const { bridge, last } = setup();
    const p = bridge.call(front({ capabilities: {} }));
    await tick();
    const q = last().ask('roots/list');
    await expectCode(p, 'capability_missing', /roots/);
    await assert.rejects(q.answer);
  });
});
