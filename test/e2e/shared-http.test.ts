// Interactive calls share legacy Streamable HTTP sessions. The legacy server sends each call's
// elicitation on that call's POST response stream, so many calls ride one session and every
// question reaches its own caller. A question sent on the GET stream has no provenance: it is the
// one running untied call's, while the calls parked beside it wait for their users.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { textOf } from '../support/client.js';
import { startHttpFixture, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';
import { until } from '../support/wait.js';

const ELICIT = { elicitation: { form: {} } };
const CALLS = 200;

interface Sessions {
  open: number;
  held: number;
  shared: number;
  sharedCalls: number;
  onClient: number;
  waitingCalls: number;
}

describe('interactive calls sharing legacy HTTP sessions', () => {
  let upstream: Running & { url: string };
  let proxy: ProxyProcess;
  const sessions = async () => {
    const body = (await (await fetch(new URL('/readyz', proxy.url))).json()) as { upstreams: Record<string, { sessions: Sessions }> };
    return body.upstreams['default']!.sessions;
  };
  const ask = (tool: string, args: Record<string, unknown> = {}) => rpc(proxy.url, 'tools/call', { name: tool, arguments: args }, { caps: ELICIT });
  const answer = (tool: string, args: Record<string, unknown>, round: ReturnType<typeof inputRequired>, content: Record<string, unknown>) =>
    rpc(
      proxy.url,
      'tools/call',
      {
        name: tool,
        arguments: args,
        requestState: round.requestState,
        inputResponses: { [Object.keys(round.inputRequests)[0]!]: { action: 'accept', content } },
      },
      { caps: ELICIT },
    );

  before(async () => {
    upstream = await startHttpFixture();
    proxy = await startProxy(['--upstream', upstream.url, '--calls-per-session', '32', '--spare-sessions', '0', '--max-sessions', '16']);
  });
  after(async () => {
    await proxy?.stop();
    await upstream?.stop();
  });

  it(`keeps ${CALLS} concurrent interactive calls apart on at most 8 sessions`, { timeout: 60_000 }, async () => {
    const first = await Promise.all(Array.from({ length: CALLS }, (_, i) => ask('ask-name', { greeting: `g${i}` }).then(inputRequired)));
    const waiting = await sessions();
    assert.ok(waiting.open <= 8, `${waiting.open} legacy sessions for ${CALLS} calls`);
    assert.equal(waiting.held, 0, 'no session is held exclusively');
    assert.equal(waiting.waitingCalls, CALLS);
    for (const [i, round] of first.entries()) {
      const question = Object.values(round.inputRequests)[0]!;
      assert.equal(question.method, 'elicitation/create', `call ${i}`);
    }
    // Answered in reverse order, each with its own name: a crossed question would mix them.
    const order = [...first.keys()].reverse();
    const done = await Promise.all(order.map((i) => answer('ask-name', { greeting: `g${i}` }, first[i]!, { name: `n${i}` })));
    for (const [k, i] of order.entries()) assert.equal(textOf(done[k]!.body.result), `g${i}, n${i}!`, JSON.stringify(done[k]!.body));
    await until(async () => (await sessions()).sharedCalls === 0, 5000, 'every shared call released');
  });

  it('gives a GET-stream question to the one untied call running, beside a call parked on the session', { timeout: 30_000 }, async () => {
    const waitingCall = inputRequired(await ask('ask-name', { greeting: 'Hi' }));
    // ask-unrelated asks without relatedRequestId: the server sends it on the GET stream.
    const own = inputRequired(await ask('ask-unrelated'));
    const parked = await sessions();
    assert.equal(parked.held, 0, JSON.stringify(parked));
    const unrelated = await rpc(
      proxy.url,
      'tools/call',
      {
        name: 'ask-unrelated',
        arguments: {},
        requestState: own.requestState,
        inputResponses: { [Object.keys(own.inputRequests)[0]!]: { action: 'accept', content: { v: 'mine' } } },
      },
      { caps: ELICIT },
    );
    assert.equal(textOf(unrelated.body.result), 'unrelated answer: mine');
    assert.equal(textOf((await answer('ask-name', { greeting: 'Hi' }, waitingCall, { name: 'Ada' })).body.result), 'Hi, Ada!');
    assert.doesNotMatch(proxy.stderr(), /cannot tell which/);
  });
});
