// Graceful drain on SIGTERM: /readyz turns 503 at once, a request that arrives during the drain
// gets HTTP 503 with a JSON-RPC error, a call already running completes, and the process exits 0.
// A call that outlives --drain-timeout does not hold the exit; a suspended interaction is ended,
// and nothing is left upstream: no legacy child, no HTTP session.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { childPids, FIXTURE, startHttpFixture, startProxy } from '../support/processes.js';
import { alive } from '../support/process-tree.js';
import { inputRequired, rpc } from '../support/rpc.js';
import { writeConfig } from '../support/config.js';
import { until } from '../support/wait.js';

const readyz = (url: string) => fetch(url.replace(/\/mcp$/, '/readyz'));
const exitOf = (proxy: Awaited<ReturnType<typeof startProxy>>) =>
  proxy.child.exitCode !== null ? Promise.resolve(proxy.child.exitCode) : once(proxy.child, 'exit').then(([code]) => code as number | null);

describe('drain on SIGTERM', () => {
  it('finishes the running call, refuses new ones with 503, and exits 0', async () => {
    const proxy = await startProxy(['--drain-timeout', '20', '--', process.execPath, FIXTURE]);
    assert.equal((await readyz(proxy.url)).status, 200);
    const running = rpc(proxy.url, 'tools/call', { name: 'slow', arguments: { ms: 1500 } });
    await until(() => /slow: started/.test(proxy.stderr()), 10_000, 'the slow call');
    const exited = exitOf(proxy);
    proxy.child.kill('SIGTERM');
    await until(async () => (await readyz(proxy.url)).status === 503, 2000, '/readyz 503 after SIGTERM');
    assert.deepEqual(await (await readyz(proxy.url)).json(), { status: 'draining' });

    const late = await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'late' } }, { id: 'late-1' });
    assert.equal(late.status, 503);
    assert.equal(late.body.id, 'late-1');
    assert.equal(late.body.error?.code, -32603);
    assert.match(late.body.error!.message, /shutting down/);

    const done = await running;
    assert.equal(done.status, 200);
    assert.deepEqual(done.body.result?.['content'], [{ type: 'text', text: 'slept 1500' }]);
    assert.equal(await exited, 0, proxy.stderr());
    assert.match(proxy.stderr(), /drained: no request running/);
  });

  it('stops waiting after --drain-timeout and still exits 0', async () => {
    const proxy = await startProxy(['--drain-timeout', '1', '--', process.execPath, FIXTURE]);
    const hanging = rpc(proxy.url, 'tools/call', { name: 'slow', arguments: { ms: 60_000 } }).catch((err: Error) => err);
    await until(() => /slow: started/.test(proxy.stderr()), 10_000, 'the slow call');
    const started = Date.now();
    const exited = exitOf(proxy);
    proxy.child.kill('SIGTERM');
    assert.equal(await exited, 0, proxy.stderr());
    const took = Date.now() - started;
    assert.ok(took >= 900 && took < 8000, `exited ${took} ms after SIGTERM`);
    assert.match(proxy.stderr(), /drain timeout passed; closing with requests still running","running":1/);
    await hanging;
  });

  it('ends a suspended interaction after the drain instead of waiting for its TTL', async () => {
    const proxy = await startProxy(['--drain-timeout', '20', '--interaction-ttl', '600', '--', process.execPath, FIXTURE]);
    const first = await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: { elicitation: {} } });
    inputRequired(first);
    const exited = exitOf(proxy);
    proxy.child.kill('SIGTERM');
    assert.equal(await exited, 0, proxy.stderr());
    assert.match(proxy.stderr(), /drained: no request running/);
    assert.match(proxy.stderr(), /"count":1,[^\n]*"message":"interactions ended: the proxy is shutting down"/);
  });

  it('leaves nothing upstream: legacy children exit, HTTP sessions are ended with the server', async () => {
    const fixture = await startHttpFixture();
    try {
      const config = writeConfig(
        [
          'default: local',
          'upstreams:',
          `  local: { stdio: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE)}] } }`,
          `  remote: { http: { url: ${JSON.stringify(fixture.url)} } }`,
          '',
        ].join('\n'),
      );
      const proxy = await startProxy(['--drain-timeout', '5', '--interaction-ttl', '600', '--config', config]);
      inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: { elicitation: {} } }));
      const remote = proxy.url.replace(/\/mcp$/, '/servers/remote/mcp');
      inputRequired(await rpc(remote, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: { elicitation: {} } }));
      const children = await childPids(proxy.child.pid!);
      assert.ok(children.length > 0);
      const exited = exitOf(proxy);
      proxy.child.kill('SIGTERM');
      assert.equal(await exited, 0, proxy.stderr());
      await until(() => children.every((pid) => !alive(pid)), 5000, 'the legacy children to exit');
      await until(() => /fixture session closed \S+/.test(fixture.stderr()), 5000, 'the HTTP session to be ended');
    } finally {
      await fixture.stop();
    }
  });
});
