// Issue 14, item 2: abandoned interactions must not lock everyone out. With --max-sessions 4 and the
// default --waiting-share 75, three calls may wait for their clients; a fourth that would wait is
// refused at once (not 30 s later for somebody else), while lists and plain calls keep working and
// /readyz reports the sessions and, when every session is in use, saturation. With
// --calls-per-session 1 each shared call counts as a whole session toward the waiting share, which
// is the case where waiting calls could take every session (issue 10 lets calls share sessions).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { textOf } from '../support/client.js';
import { startHttpFixture, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { rpc } from '../support/rpc.js';

const ELICIT = { elicitation: { form: {} } };

interface Readyz {
  status: string;
  upstreams: Record<string, { ready: boolean; saturated?: boolean; sessions?: { held: number; onClient: number; max: number; maxOnClient: number } }>;
}

describe('pool fairness with abandoned interactions', () => {
  let upstream: Running & { url: string };
  let proxy: ProxyProcess;
  const readyz = async () => {
    const r = await fetch(new URL('/readyz', proxy.url));
    return { status: r.status, body: (await r.json()) as Readyz };
  };
  before(async () => {
    upstream = await startHttpFixture();
    proxy = await startProxy(['--upstream', upstream.url, '--max-sessions', '4', '--spare-sessions', '0', '--calls-per-session', '1']);
  });
  after(async () => {
    await proxy?.stop();
    await upstream?.stop();
  });

  it('lets three calls wait, refuses the fourth at once, and keeps serving everything else', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT });
      assert.equal(r.body.result?.['resultType'], 'input_required', JSON.stringify(r.body));
    }
    const started = Date.now();
    const refused = await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT });
    assert.equal(refused.body.error?.code, -32603, JSON.stringify(refused.body));
    assert.match(refused.body.error!.message, /too many calls are waiting for input/);
    assert.deepEqual(refused.body.error!.data, { reason: 'waiting_limit', action: 'retry' });
    assert.ok(Date.now() - started < 5000, `refused after ${Date.now() - started} ms`);

    const list = await rpc(proxy.url, 'tools/list', {}, { caps: ELICIT });
    assert.ok(Array.isArray(list.body.result?.['tools']), JSON.stringify(list.body));
    const echo = await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'still here' } }, { caps: ELICIT });
    assert.equal(textOf(echo.body.result), 'echo: still here');

    const r = await readyz();
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const sessions = r.body.upstreams['default']!.sessions!;
    assert.equal(sessions.onClient, 3);
    assert.equal(sessions.maxOnClient, 3);
    assert.equal(sessions.max, 4);
  });

  it('reports saturation on /readyz while every session is held', async () => {
    const slow = rpc(proxy.url, 'tools/call', { name: 'slow', arguments: { ms: 1500 } }, { caps: ELICIT });
    let saturated: { status: number; body: Readyz } | undefined;
    for (let i = 0; i < 40 && !saturated; i++) {
      const r = await readyz();
      if (r.body.upstreams['default']!.saturated) saturated = r;
      else await new Promise((res) => setTimeout(res, 25));
    }
    assert.ok(saturated, 'readyz never said saturated');
    assert.equal(saturated.status, 503);
    assert.equal(saturated.body.upstreams['default']!.ready, false);
    assert.equal(textOf((await slow).body.result), 'slept 1500');
    assert.equal((await readyz()).status, 200);
  });
});
