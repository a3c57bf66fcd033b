// What an operator watches for leaks, on a running proxy: the connections it holds to each network
// upstream (mrtr_upstream_connections, the same count /proc gives) beside prom-client's
// process_open_fds and process_max_fds, and a warn line once descriptors pass 80 % of the limit.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeConfig } from '../support/config.js';
import { connectionsTo, PROC_READABLE } from '../support/descriptors.js';
import { scrape } from '../support/metrics.js';
import { FIXTURE, PROXY_BIN, startHttpFixture, startProcess, TEST_STATE_KEY, type Running } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';
import { until } from '../support/wait.js';
import { skipOrFail } from '../support/skip.js';

const ELICIT = { elicitation: {} };
const skip = skipOrFail('e2e/descriptor-metrics', !PROC_READABLE && 'it reads descriptors and connections from Linux /proc');

describe('descriptors and upstream connections', { skip }, () => {
  let fixture: Running & { url: string };
  before(async () => {
    fixture = await startHttpFixture();
  });
  after(async () => {
    await fixture?.stop();
  });

  /** The proxy with `ulimit -n` set to `limit` (a shell starts it), in front of the HTTP fixture and a stdio one. */
  async function proxyWithLimit(limit: number) {
    const config = writeConfig(
      [
        'default: remote',
        'upstreams:',
        `  remote: { http: { url: ${JSON.stringify(fixture.url)} } }`,
        `  local: { stdio: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE)}] } }`,
        '',
      ].join('\n'),
    );
    const command = `ulimit -n ${limit} && exec "$0" "$@"`;
    const p = await startProcess(
      'sh',
      ['-c', command, process.execPath, PROXY_BIN, '--port', '0', '--interaction-ttl', '60', '--config', config],
      /listening on (https?:\/\/[^"\s]+)/,
      {
        env: { MRTR_STATE_KEY: TEST_STATE_KEY },
      },
    );
    return { ...p, url: p.ready, metrics: p.ready.replace(/\/mcp$/, '/metrics') };
  }

  it('counts the connections to each network upstream as /proc does, and the process descriptors and their limit', async () => {
    const proxy = await proxyWithLimit(4096);
    try {
      const port = Number(new URL(fixture.url).port);
      const pid = proxy.child.pid!;
      for (let i = 0; i < 3; i++) inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT }));
      const m = await scrape(proxy.metrics);
      const held = m.value('mrtr_upstream_connections', { upstream: 'remote' });
      assert.ok(held >= 3, `three waiting calls hold a stream each: ${held}`);
      assert.equal(held, await connectionsTo(pid, port));
      assert.equal(
        m.samples.filter((s) => s.name === 'mrtr_upstream_connections' && s.labels['upstream'] === 'local').length,
        0,
        'a stdio upstream has no connections',
      );
      assert.equal(m.value('process_max_fds'), 4096);
      assert.ok(m.value('process_open_fds') > held);
    } finally {
      await proxy.stop();
    }
  });

  it('warns once when descriptors pass 80 % of the limit', async () => {
    const proxy = await proxyWithLimit(64);
    try {
      // Each waiting call holds a connection: go past 80 % of 64 (52), within the limit.
      for (let i = 0; i < 40 && !/past 80% of the limit/.test(proxy.stderr()); i++) {
        inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT }));
        const open = (await scrape(proxy.metrics)).value('process_open_fds');
        if (open >= 54) break;
      }
      await until(() => /past 80% of the limit/.test(proxy.stderr()), 15_000, 'the warn line');
      const line = proxy
        .stderr()
        .split('\n')
        .find((l) => l.includes('past 80% of the limit'))!;
      const parsed = JSON.parse(line) as { level: string; open: number; limit: number };
      assert.equal(parsed.level, 'warn');
      assert.equal(parsed.limit, 64);
      assert.ok(parsed.open >= 52, line);
      assert.equal(proxy.stderr().split('past 80% of the limit').length - 1, 1, 'said once, not at every check');
    } finally {
      await proxy.stop();
    }
  });
});
