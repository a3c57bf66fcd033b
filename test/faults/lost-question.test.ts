// Issue 14, item 1: a legacy server that sends its question without tying it to the call (the v1
// SDK puts it on the standalone GET stream) must never lose it on a fresh legacy session. The
// fixture holds every GET for 300 ms, so a call POSTed before the GET stream is acknowledged finds
// no stream: the tool then says "lost" at once (a real server would drop the question silently and
// the call would hang until the legacy request timeout).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { textOf } from '../support/client.js';
import { startHttpFixture, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { rpc } from '../support/rpc.js';

const ELICIT = { elicitation: { form: {} } };

describe('questions on fresh legacy Streamable HTTP sessions', () => {
  let upstream: Running & { url: string };
  let proxy: ProxyProcess;
  before(async () => {
    upstream = await startHttpFixture({}, ['--get-delay', '300']);
    // No spare sessions: every concurrent call opens a fresh legacy session.
    proxy = await startProxy(['--upstream', upstream.url, '--spare-sessions', '0', '--max-sessions', '32']);
  });
  after(async () => {
    await proxy?.stop();
    await upstream?.stop();
  });

  async function askAndAnswer(value: string): Promise<string> {
    const params = { name: 'ask-unrelated', arguments: {} };
    const first = await rpc(proxy.url, 'tools/call', params, { caps: ELICIT });
    const result = first.body.result as { resultType?: string; inputRequests?: Record<string, unknown>; requestState?: string } | undefined;
    if (result?.resultType !== 'input_required') return `no question: ${JSON.stringify(first.body)}`;
    const [key] = Object.keys(result.inputRequests ?? {});
    const done = await rpc(
      proxy.url,
      'tools/call',
      { ...params, requestState: result.requestState, inputResponses: { [key!]: { action: 'accept', content: { v: value } } } },
      { caps: ELICIT },
    );
    return textOf(done.body.result);
  }

  it('waits for the GET stream before sending the first call of a new session', async () => {
    assert.equal(await askAndAnswer('one'), 'unrelated answer: one');
  });

  it('loses no question among concurrent calls that each open a session, and mixes no answers', async () => {
    const values = Array.from({ length: 24 }, (_, i) => `v${i}`);
    const got = await Promise.all(values.map((v) => askAndAnswer(v)));
    assert.deepEqual(
      got,
      values.map((v) => `unrelated answer: ${v}`),
    );
  });
});
