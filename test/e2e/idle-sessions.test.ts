// --idle-session-ttl over stdio: a pooled legacy child nobody uses is closed (its process exits)
// once it has been idle for the TTL, within a quarter of the TTL more; the control session stays.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { textOf } from '../support/client.js';
import { childPids, FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { rpc } from '../support/rpc.js';
import { until } from '../support/wait.js';

describe('idle pooled stdio sessions', () => {
  let proxy: ProxyProcess;
  const open = async () => {
    const body = (await (await fetch(new URL('/readyz', proxy.url))).json()) as { upstreams: Record<string, { sessions: { open: number } }> };
    return body.upstreams['default']!.sessions.open;
  };

  before(async () => {
    proxy = await startProxy(['--spare-sessions', '0', '--idle-session-ttl', '1', '--', process.execPath, FIXTURE]);
  });
  after(async () => {
    await proxy?.stop();
  });

  it('closes a pooled child idle for --idle-session-ttl and keeps serving', { timeout: 30_000 }, async () => {
    const before = (await childPids(proxy.child.pid!)).length;
    assert.equal(textOf((await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'a' } })).body.result), 'echo: a');
    assert.equal(await open(), 1, 'the call left one pooled session');
    const withPooled = (await childPids(proxy.child.pid!)).length;
    assert.equal(withPooled, before + 1, 'the pooled session is a child process of its own');
    await until(async () => (await open()) === 0, 10_000, 'the idle pooled session closed');
    await until(async () => (await childPids(proxy.child.pid!)).length === before, 10_000, 'its child process exited');
    assert.equal(
      textOf((await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'b' } })).body.result),
      'echo: b',
      'a new call opens a new session',
    );
  });
});
