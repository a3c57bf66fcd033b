// Proxy-hosted tasks on the stdio front (--stdio, as a desktop client launches the proxy), raw
// JSON-RPC lines on the pipe: a task handle, its question answered with tasks/update, and a
// subscriptions/listen for its id that hears each change (notifications/tasks). On stdio a
// subscription lasts until the client cancels it (the official front keeps even an empty one).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { hostedFixtureConfig } from '../support/config.js';
import { PROXY_BIN, TEST_STATE_KEY } from '../support/processes.js';
import { until } from '../support/wait.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } },
};
type Line = { id?: number; method?: string; result?: Record<string, unknown>; error?: unknown; params?: Record<string, unknown> };

describe('proxy-hosted tasks on the stdio front', () => {
  let proxy: ChildProcessWithoutNullStreams;
  const lines: Line[] = [];
  let read = 0;
  const send = (message: Record<string, unknown>) => proxy.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  /** The next line from the proxy that `match` accepts (earlier unmatched lines are skipped). */
  const next = async (match: (l: Line) => boolean, what: string): Promise<Line> => {
    await until(() => lines.slice(read).some(match), 10_000, what);
    const at = lines.findIndex((l, i) => i >= read && match(l));
    read = at + 1;
    return lines[at]!;
  };

  before(async () => {
    const config = hostedFixtureConfig('{ tools: [ask-name] }');
    proxy = spawn(process.execPath, [PROXY_BIN, '--stdio', '--config', config], { env: { ...process.env, MRTR_STATE_KEY: TEST_STATE_KEY } });
    let buffer = '';
    proxy.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        lines.push(JSON.parse(buffer.slice(0, end)) as Line);
        buffer = buffer.slice(end + 1);
      }
    });
  });
  after(() => {
    proxy?.kill();
  });

  it('runs a task whose listen hears each change', async () => {
    send({ id: 1, method: 'tools/call', params: { name: 'ask-name', arguments: {}, _meta: META } });
    const created = await next((l) => l.id === 1, 'the task handle');
    assert.equal(created.result?.['resultType'], 'task', JSON.stringify(created));
    const taskId = String(created.result?.['taskId']);

    send({ id: 2, method: 'subscriptions/listen', params: { notifications: { taskIds: [taskId] }, _meta: META } });
    const ack = await next((l) => l.method === 'notifications/subscriptions/acknowledged', 'the acknowledgement');
    assert.deepEqual(ack.params?.['notifications'], { taskIds: [taskId] });

    const seen: string[] = [];
    while (seen.at(-1) !== 'completed') {
      const line = await next((l) => l.method === 'notifications/tasks', 'a task notification');
      assert.equal(line.params?.['taskId'], taskId);
      assert.equal((line.params?.['_meta'] as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/subscriptionId'], 2);
      seen.push(String(line.params?.['status']));
      if (line.params?.['status'] === 'input_required') {
        send({
          id: 3,
          method: 'tasks/update',
          params: { taskId, inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } }, _meta: META },
        });
      }
      if (line.params?.['status'] === 'completed') {
        const result = line.params?.['result'] as { content: Array<{ text: string }> };
        assert.equal(result.content[0]?.text, 'Hello, Ada!');
      }
    }
    assert.ok(seen.includes('input_required'), seen.join(' → '));
    // Cancelled by the client: nothing more for it, and the connection serves on.
    send({ method: 'notifications/cancelled', params: { requestId: 2 } });
    send({ id: 4, method: 'tasks/get', params: { taskId, _meta: META } });
    const last = await next((l) => l.id === 4, 'the tasks/get answer');
    assert.equal(last.result?.['status'], 'completed');
    assert.equal(
      lines.slice(read - 1).some((l) => l.id === 2 || l.method === 'notifications/tasks'),
      false,
    );
  });
});
