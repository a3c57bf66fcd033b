// The tasks extension's own client (@modelcontextprotocol/ext-tasks, on the official 2026-07-28
// client) against both kinds of task: it calls a tool that runs as a task (the proxy's own, and a
// 2025-11-25 server's translated), answers the task's question through its input handler
// (tasks/update), and settles on the result (tasks/get).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { connectClient, textOf } from '../support/client.js';
import { hostedFixtureConfig } from '../support/config.js';
import { ROOT, startProxy, type ProxyProcess } from '../support/processes.js';
import { mcpHeaders, PROTOCOL } from '../support/rpc.js';

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
      headers: mcpHeaders(message.method, typeof name === 'string' ? name : undefined),
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

/** Calls `tool` as a task through the extension's client, answering every question with `answer`; the settled result and what was asked. */
async function callAsTask(client: Client, url: string, tool: string, args: Record<string, string>, answer: Record<string, string | boolean>) {
  const asked: Array<{ kind: string }> = [];
  const session = createTaskSessionFromClient(client, {
    endpointId: 'mrtr-proxy',
    rawDispatch: rawDispatch(url) as never,
    v2RequestFraming: { protocolVersion: PROTOCOL, clientInfo: CLIENT_INFO, clientCapabilities: CAPS },
    onInputRequest: async (request) => {
      asked.push(request as { kind: string });
      return { action: 'accept', content: answer } as never;
    },
  });
  try {
    const execution = await session.callTool(tool, args);
    const { outcome } = await execution.settle();
    return { result: resultFromTaskOutcome(outcome), asked };
  } finally {
    await session.close();
  }
}

describe('the ext-tasks client against proxy-hosted tasks', () => {
  let proxy: ProxyProcess;
  let client: Client;
  before(async () => {
    const config = hostedFixtureConfig('{ tools: [ask-name], pollInterval: 0.1 }');
    proxy = await startProxy(['--config', config]);
    client = await connectClient(proxy.url, CAPS);
  });
  after(async () => {
    await client?.close();
    await proxy?.stop();
  });

  it('runs a task, answers its question through the input handler, and settles on the result', async () => {
    const { result, asked } = await callAsTask(client, proxy.url, 'ask-name', {}, { name: 'Ada' });
    assert.equal(textOf(result), 'Hello, Ada!');
    assert.deepEqual(
      asked.map((a) => a.kind),
      ['elicitation'],
    );
  });
});

describe("the ext-tasks client against a 2025-11-25 server's translated tasks", () => {
  let proxy: ProxyProcess;
  let client: Client;
  before(async () => {
    proxy = await startProxy(['--', process.execPath, `${ROOT}dist/test/fixtures/tasks-server.js`]);
    client = await connectClient(proxy.url, CAPS);
  });
  after(async () => {
    await client?.close();
    await proxy?.stop();
  });

  it('runs the legacy task, answers the question it asks inside the task, and settles on the result', async () => {
    const { result, asked } = await callAsTask(client, proxy.url, 'confirm_delete', { filename: 'notes.txt' }, { confirm: true });
    assert.equal(textOf(result), 'deleted: {"confirm":true}');
    assert.deepEqual(
      asked.map((a) => a.kind),
      ['elicitation'],
    );
  });
});
