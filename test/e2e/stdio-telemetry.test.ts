// The stdio front's access log and metrics (--stdio --metrics-port): the official client drives a
// pass-through call and an interactive one whose round it answers itself.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { DEFAULT_ANSWERS, textOf } from '../support/client.js';
import { scrape } from '../support/metrics.js';
import { FIXTURE, PROXY_BIN, TEST_STATE_KEY } from '../support/processes.js';
import { until } from '../support/wait.js';

describe('stdio front: access log and metrics', () => {
  let client: Client;
  let stderr = '';
  const access = () =>
    stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l['message'] === 'access');
  before(async () => {
    client = new Client({ name: 'stdio-telemetry', version: '1' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    client.setRequestHandler('elicitation/create', async (r) => DEFAULT_ANSWERS.elicit(r.params as never) as never);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [PROXY_BIN, '--stdio', '--metrics-port', '0', '--', process.execPath, FIXTURE],
      env: { ...(process.env as Record<string, string>), MRTR_STATE_KEY: TEST_STATE_KEY },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    await client.connect(transport);
  });
  after(async () => {
    await client?.close();
  });

  it('logs and counts each request, the rounds of an interaction included', async () => {
    await client.listTools();
    const done = await client.callTool({ name: 'ask-name', arguments: {} });
    assert.match(textOf(done), /^Hello, /);
    await until(() => access().filter((l) => l['method'] === 'tools/call').length === 2, 5000, 'two tools/call lines');
    const calls = access().filter((l) => l['method'] === 'tools/call');
    assert.deepEqual(
      calls.map((l) => [l['mode'], l['round'], l['target'], l['status']]),
      [
        ['interactive', 0, 'ask-name', undefined],
        ['interactive', 1, 'ask-name', undefined],
      ],
    );
    assert.equal(access().find((l) => l['method'] === 'tools/list')?.['mode'], 'passthrough');

    await until(() => /metrics on http:\/\/127\.0\.0\.1:\d+\/metrics/.test(stderr), 5000, 'the metrics line');
    const url = /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(stderr)![1]!;
    const m = await scrape(url);
    const U = { upstream: 'default', method: 'tools/call' };
    assert.equal(m.value('mrtr_requests_total', { ...U, outcome: 'input_required' }), 1);
    assert.equal(m.value('mrtr_requests_total', { ...U, outcome: 'complete' }), 1);
    assert.equal(m.value('mrtr_input_required_total', { ...U, input: 'elicitation' }), 1);
    assert.equal(m.value('mrtr_interactions_ended_total', { upstream: 'default', reason: 'completed' }), 1);
  });
});
