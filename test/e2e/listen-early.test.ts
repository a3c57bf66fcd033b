// The front's port: bound before the legacy children start, so a client that connects while they
// do waits and is then served; and any loopback address (127.0.0.0/8) counts as loopback.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FIXTURE, PROXY_BIN, type ProxyProcess, startProxy, TEST_STATE_KEY } from '../support/processes.js';
import { freePort } from '../support/ports.js';
import { rpc } from '../support/rpc.js';
import { until } from '../support/wait.js';

const running: ProxyProcess[] = [];
after(async () => {
  await Promise.all(running.map((p) => p.stop()));
});

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('the front port', () => {
  it('is bound before the legacy children start; a request sent meanwhile is answered once the proxy is ready', async () => {
    // A legacy server that takes 2 s to start.
    const dir = mkdtempSync(join(tmpdir(), 'mrtr-listen-early-'));
    const slow = join(dir, 'slow.mjs');
    writeFileSync(slow, `await new Promise((r) => setTimeout(r, 2000));\nawait import(${JSON.stringify(pathToFileURL(FIXTURE).href)});\n`);
    const port = await freePort();
    const proxy = spawn(process.execPath, [PROXY_BIN, '--port', String(port), '--', process.execPath, slow], {
      env: { ...process.env, MRTR_STATE_KEY: TEST_STATE_KEY },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    proxy.stderr.on('data', (d: Buffer) => (log += d.toString()));
    try {
      await until(() => accepts(port), 10_000, 'the port to accept connections');
      assert.doesNotMatch(log, /listening on/, 'the port accepts before the proxy is ready');
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      assert.equal(health.status, 200);
      assert.match(log, /listening on/, 'answered once the proxy was ready');
    } finally {
      proxy.kill('SIGKILL');
    }
  });

  it('counts every address of 127.0.0.0/8 as loopback: --host 127.0.0.2 needs no authentication and takes its own Host', async (t) => {
    if (process.platform !== 'linux') return t.skip('only Linux routes all of 127.0.0.0/8 to loopback without configuration');
    const proxy = await startProxy(['--host', '127.0.0.2', '--', process.execPath, FIXTURE]);
    running.push(proxy);
    assert.match(proxy.url, /^http:\/\/127\.0\.0\.2:\d+\/mcp$/);
    const reply = await rpc(proxy.url, 'server/discover');
    assert.ok(reply.body.result, JSON.stringify(reply.body));
  });
});
