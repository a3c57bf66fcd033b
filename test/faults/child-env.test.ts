// A stdio child gets the SDK's minimal environment plus what the operator names, never the
// proxy's state key; a child that prints its environment leaks nothing into the proxy's log.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/client';
import { connectClient, textOf } from '../support/client.js';
import { FIXTURE, PROXY_BIN, startProxy, TEST_STATE_KEY, type ProxyProcess } from '../support/processes.js';
import { until } from '../support/wait.js';

const envOf = async (client: Client, name: string) => textOf(await client.callTool({ name: 'env', arguments: { name } }));

describe('the environment of a stdio child', () => {
  let proxy: ProxyProcess;
  let client: Client;
  before(async () => {
    // At debug: the child prints its environment before its first message, and the log must blank the key out there too.
    proxy = await startProxy(
      ['--log-level', 'debug', '--env', 'MRTR_TEST_PASSED', '--env', 'MRTR_TEST_SET=given', '--', process.execPath, FIXTURE, '--print-env'],
      {
        MRTR_TEST_PASSED: 'named',
        MRTR_TEST_UNNAMED: 'kept-back',
      },
    );
    client = await connectClient(proxy.url);
  });
  after(async () => {
    await client?.close();
    await proxy?.stop();
  });

  it('holds the default variables and the named ones, not the rest', async () => {
    assert.equal(await envOf(client, 'PATH'), `PATH=${process.env['PATH']}`);
    assert.equal(await envOf(client, 'MRTR_TEST_PASSED'), 'MRTR_TEST_PASSED=named');
    assert.equal(await envOf(client, 'MRTR_TEST_SET'), 'MRTR_TEST_SET=given');
    assert.equal(await envOf(client, 'MRTR_TEST_UNNAMED'), 'MRTR_TEST_UNNAMED=<unset>');
  });

  it('never holds the state key, and the relayed stderr does not show it', async () => {
    assert.equal(await envOf(client, 'MRTR_STATE_KEY'), 'MRTR_STATE_KEY=<unset>');
    await until(() => proxy.stderr().includes('fixture parent environment'), 5000, 'the child printing its environment');
    // The child read the proxy's /proc/PID/environ too: the log blanks the key out.
    assert.match(proxy.stderr(), /fixture parent environment: [^\n]*MRTR_STATE_KEY=\[redacted\]/);
    assert.ok(!proxy.stderr().includes(TEST_STATE_KEY), 'the state key appears in the proxy log');
  });

  it('refuses to pass the state key by name', () => {
    const r = spawnSync(process.execPath, [PROXY_BIN, '--env', 'MRTR_STATE_KEY', '--', process.execPath, FIXTURE], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--env: MRTR_STATE_KEY holds the proxy's state key, which is never passed to a legacy server/);
  });
});
