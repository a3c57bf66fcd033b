// Every question reaches its caller when the legacy server asks untied, the way the v1 SDK's
// README shows: `server.elicitInput()` inside a tool, without `relatedRequestId`. Over Streamable
// HTTP such a question travels on the session's standalone GET stream; over stdio nothing ties any
// question to its call. A parked call cannot ask, so the proxy runs one such call at a time per
// legacy session and parks any number beside it: bursts of users complete with their own answers,
// on few sessions, without a refusal (test/e2e/untied-late-get.test.ts: also when a loaded server
// answers the GET stream late).
// run-alone: how many legacy children a burst starts depends on how fast each one starts, which a
// neighbour's load slows.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { childPids, FIXTURE, startHttpFixture, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { assertOwnAnswers, flows } from '../support/untied-flows.js';

describe('questions sent untied over Streamable HTTP', () => {
  const running: Array<Running | ProxyProcess> = [];
  after(async () => {
    for (const p of running.reverse()) await p.stop();
  });

  it('completes a cold burst of 200 users of a tool that asks at once untied, with default flags', { timeout: 120_000 }, async (t) => {
    const upstream = await startHttpFixture();
    running.push(upstream);
    const proxy = await startProxy(['--upstream', upstream.url]);
    running.push(proxy);
    const { replies, parked } = await flows(proxy, 'ask-unrelated', 200, 'v');
    assertOwnAnswers(replies, (i) => `unrelated answer: user-${i}`);
    t.diagnostic(`${parked.open} legacy sessions for 200 parked users`);
    assert.equal(parked.held, 0, 'no session is held by one user');
    // Sessions grow by demand for runner slots while the burst's calls run, one start at a time
    // (an HTTP session is a socket); they do not grow with the users who wait.
    assert.ok(parked.open <= 50, `${parked.open} legacy sessions for 200 parked users`);
    assert.doesNotMatch(proxy.stderr(), /cannot be attributed|too many calls are waiting/);
  });
});

describe('questions over stdio', () => {
  let proxy: ProxyProcess | undefined;
  after(async () => {
    await proxy?.stop();
  });

  it('parks 200 users of a held tool at once on at most 4 legacy children, each answered with their own value', { timeout: 120_000 }, async (t) => {
    proxy = await startProxy(['--suspend', 'hold', '--', process.execPath, FIXTURE]);
    const { replies, parked } = await flows(proxy, 'ask-name', 200, 'name', (i) => ({ greeting: `g${i}` }));
    assertOwnAnswers(replies, (i) => `g${i}, user-${i}!`);
    assert.equal(parked.waitingCalls, 200, JSON.stringify(parked));
    // Idle children stay for --idle-session-ttl: every child the burst started is still there.
    const children = await childPids(proxy.child.pid!);
    t.diagnostic(`${children.length} legacy children (the control session's included) for 200 parked users`);
    assert.ok(children.length <= 4, `${children.length} legacy children for 200 parked users`);
  });
});
