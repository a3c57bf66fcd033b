// The tasks extension's own client (@modelcontextprotocol/ext-tasks, on the official 2026-07-28
// client) against proxy-hosted tasks: it calls a tool the proxy runs as a task, answers the task's
// question through its input handler (tasks/update), and settles on the result (tasks/get).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { connectClient, textOf } from '../support/client.js';
import { writeConfig } from '../support/config.js';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { PROTOCOL } from '../support/rpc.js';

const CAPS = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };
const CLIENT_INFO = { name: 'ext-tasks-e2e', version: '1' };

/** The session's requests (method and params) sent over Streamable HTTP as JSON-RPC; the final response. */
function rawDispatch(url: string) {
  let id = 0;
  return async (request: unknown) => {
    const message = request as { method: string; params?: Record<string, unknown> };
    const name = message.params?.['taskId'] ?? message.params?.['name'];
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': PROTOCOL,
        'mcp-method': message.method,
        ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, ...(request as object) }),
    });
    const text = await response.text();
    if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return JSON.parse(text);
    // The last message of the stream is the response; notifications come before it.
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5)) as { id?: unknown });
    return data.findLast((m) => m.id !== undefined);
  };
}

describe('the ext-tasks client against proxy-hosted tasks', () => {
  let proxy: ProxyProcess;
  let client: Client;
  before(async () => {
    const config = writeConfig(
      [
        'upstreams:',
        '  fixture:',
        '    stdio:',
        `      command: ${JSON.stringify(process.execPath)}`,
        `      args: [${JSON.stringify(FIXTURE)}]`,
        '    tasks: { tools: [ask-name], pollInterval: 0.1 }',
        '',
      ].join('\n'),
    );
    proxy = await startProxy(['--config', config]);
    client = await connectClient(proxy.url, CAPS);
  });
  after(async () => {
    await client?.close();
    await proxy?.stop();
  });

  it('runs a task, answers its question through the input handler, and settles on the result', async () => {
    const asked: unknown[] = [];
    const session = createTaskSessionFromClient(client, {
      endpointId: 'mrtr-proxy',
      rawDispatch: rawDispatch(proxy.url) as never,
      v2RequestFraming: { protocolVersion: PROTOCOL, clientInfo: CLIENT_INFO, clientCapabilities: CAPS },
      onInputRequest: async (request) => {
        asked.push(request);
        return { action: 'accept', content: { name: 'Ada' } } as never;
      },
    });
    try {
      const execution = await session.callTool('ask-name', {});
      const { outcome } = await execution.settle();
      assert.equal(textOf(resultFromTaskOutcome(outcome)), 'Hello, Ada!');
      assert.equal(asked.length, 1);
      assert.equal((asked[0] as { kind: string }).kind, 'elicitation');
    } finally {
      await session.close();
    }
  });
});
