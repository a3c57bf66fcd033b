// Every question reaches its caller when the legacy server asks untied, the way the v1 SDK's
// README shows: `server.elicitInput()` inside a tool, without `relatedRequestId`. Over Streamable
// HTTP such a question travels on the session's standalone GET stream; over stdio nothing ties any
// question to its call. A parked call cannot ask, so the proxy runs one such call at a time per
// legacy session and parks any number beside it: bursts of users complete with their own answers,
// on few sessions, without a refusal, also when a loaded server answers the GET stream late.
// run-alone: how many legacy children a burst starts depends on how fast each one starts, which a
// neighbour's load slows.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { textOf } from '../support/client.js';
import { childPids, FIXTURE, startHttpFixture, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { inputRequired, rpc, type RpcReply } from '../support/rpc.js';

const ELICIT = { elicitation: { form: {} } };

interface Sessions {
  open: number;
  held: number;
  sharedCalls: number;
  waitingCalls: number;
}

async function sessionsOf(proxy: ProxyProcess): Promise<Sessions> {
  const body = (await (await fetch(new URL('/readyz', proxy.url))).json()) as { upstreams: Record<string, { sessions: Sessions }> };
  return body.upstreams['default']!.sessions;
}

/**
 * `users` concurrent flows of `tool`: each asks, parks, and is answered with its own value; the
 * replies in user order. `value(i)` is what user i answers under `field`.
 */
async function flows(proxy: ProxyProcess, tool: string, users: number, field: string, args: (i: number) => Record<string, unknown> = () => ({})) {
  const firsts = await Promise.all(Array.from({ length: users }, (_, i) => rpc(proxy.url, 'tools/call', { name: tool, arguments: args(i) }, { caps: ELICIT })));
  const parked = await sessionsOf(proxy);
  const answers: Promise<RpcReply>[] = firsts.map((first, i) => {
    if (first.body.result?.['resultType'] !== 'input_required') return Promise.resolve(first);
    const round = inputRequired(first);
    const key = Object.keys(round.inputRequests)[0]!;
    return rpc(
      proxy.url,
      'tools/call',
      { name: tool, arguments: args(i), requestState: round.requestState, inputResponses: { [key]: { action: 'accept', content: { [field]: `user-${i}` } } } },
      { caps: ELICIT },
    );
  });
  return { replies: await Promise.all(answers), parked };
}

function assertOwnAnswers(replies: RpcReply[], expected: (i: number) => string): void {
  const wrong = replies.map((r, i) => [i, textOf(r.body.result) || JSON.stringify(r.body)] as const).filter(([i, text]) => text !== expected(i));
  assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} of ${replies.length} users did not get their own answer`);
}

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

  it('completes 3 waves of 200 on fresh sessions when one session in four answers its GET stream late', { timeout: 180_000 }, async () => {
    // 1.5 s: longer than any fixed bound short enough not to stall a healthy server's calls.
    const upstream = await startHttpFixture({}, ['--get-delay', '1500', '--late-get-every', '4']);
    running.push(upstream);
    for (let wave = 0; wave < 3; wave++) {
      const proxy = await startProxy(['--upstream', upstream.url, '--spare-sessions', '0']);
      try {
        const { replies } = await flows(proxy, 'ask-unrelated', 200, 'v');
        assertOwnAnswers(replies, (i) => `unrelated answer: user-${i}`);
      } finally {
        await proxy.stop();
      }
    }
  });

  it('lets 20 users answer at once with default flags, on a tool that asks tied or untied', { timeout: 60_000 }, async () => {
    const upstream = await startHttpFixture();
    running.push(upstream);
    const proxy = await startProxy(['--upstream', upstream.url]);
    running.push(proxy);
    const untied = await flows(proxy, 'ask-unrelated', 20, 'v');
    assertOwnAnswers(untied.replies, (i) => `unrelated answer: user-${i}`);
    const tied = await flows(proxy, 'ask-name', 20, 'name', (i) => ({ greeting: `g${i}` }));
    assertOwnAnswers(tied.replies, (i) => `g${i}, user-${i}!`);
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
