// The proxy binary in front of a v1-SDK legacy server over stdio, driven by the official
// 2026-07-28 client with automatic fulfilment.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { connectClient, expectCallsKeptApart, textOf } from '../support/client.js';
import { FIXTURE, startProxy, type Proxy } from '../support/processes.js';
import { ALL_CAPS, inputRequired, rpc } from '../support/rpc.js';

describe('bridge over a stdio legacy server', () => {
  let proxy: Proxy;
  let client: Client;
  before(async () => {
    proxy = await startProxy(['--', process.execPath, FIXTURE], { MRTR_TEST_MARKER: 'passed-through' });
    client = await connectClient(proxy.url);
  });
  after(async () => {
    await client?.close();
    await proxy?.stop();
  });

  it('server/discover describes the legacy server without legacy tasks', async () => {
    const d = await rpc(proxy.url, 'server/discover');
    const r = d.body.result!;
    assert.deepEqual(r['supportedVersions'], ['2026-07-28']);
    assert.equal((r['_meta'] as Record<string, { name: string }>)['io.modelcontextprotocol/serverInfo']!.name, 'fixture-legacy');
    assert.equal(r['instructions'], 'A legacy fixture for mrtr-proxy tests.');
    const caps = r['capabilities'] as Record<string, unknown>;
    assert.ok(caps['tools'] && caps['resources'] && caps['prompts']);
    assert.equal(caps['tasks'], undefined);
  });

  it('forwards a call that needs no input', async () => {
    assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })), 'echo: hi');
  });

  it('turns a mid-call elicitation into an input_required round and resumes the call', async () => {
    assert.equal(textOf(await client.callTool({ name: 'ask-name', arguments: { greeting: 'Hi' } })), 'Hi, Ada!');
  });

  it('runs sequential requests as successive rounds', async () => {
    assert.equal(textOf(await client.callTool({ name: 'ask-twice', arguments: {} })), 'first=one second=two');
  });

  it('translates sampling and roots', async () => {
    assert.equal(textOf(await client.callTool({ name: 'summarize', arguments: { text: 'x' } })), 'summary by test-model: sampled text');
    assert.equal(textOf(await client.callTool({ name: 'list-roots', arguments: {} })), 'roots: file:///work/project');
  });

  it('gathers requests the legacy server sends together into one round', async () => {
    const first = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-all', arguments: {} }, { caps: ALL_CAPS }));
    const keys = Object.keys(first.inputRequests).sort();
    assert.deepEqual(keys, ['elicitation-1', 'roots-3', 'sampling-2']);
    assert.equal(first.inputRequests['roots-3']!.method, 'roots/list');
    const final = await rpc(
      proxy.url,
      'tools/call',
      {
        name: 'ask-all',
        arguments: {},
        requestState: first.requestState,
        inputResponses: {
          'elicitation-1': { action: 'accept', content: { color: 'red' } },
          'sampling-2': { role: 'assistant', content: { type: 'text', text: 'hey' }, model: 'm' },
          'roots-3': { roots: [{ uri: 'file:///r' }] },
        },
      },
      { caps: ALL_CAPS },
    );
    assert.equal(final.body.result!['resultType'], 'complete');
    assert.equal(textOf(final.body.result), 'color=red model=m said=hey roots=file:///r');
  });

  it('strips legacy-only fields from input requests', async () => {
    const r = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-url', arguments: {} }, { caps: ALL_CAPS }));
    const req = r.inputRequests['elicitation-1']!;
    assert.equal(req.params!['mode'], 'url');
    assert.equal(req.params!['url'], 'https://example.com/login');
    assert.equal(req.params!['elicitationId'], undefined);
    assert.equal(req.params!['_meta'], undefined);
  });

  it('bridges prompts/get and resources/read', async () => {
    const prompt = await client.getPrompt({ name: 'greet', arguments: {} });
    assert.deepEqual(prompt.messages[0]!.content, { type: 'text', text: 'Greet world' });
    const res = await client.readResource({ uri: 'fixture://secret' });
    assert.equal((res.contents[0] as { text: string }).text, 'secret for h');
    const stat = await client.readResource({ uri: 'fixture://static' });
    assert.equal((stat.contents[0] as { text: string }).text, 'static text');
  });

  it('keeps results intact: structuredContent, vendor _meta, unknown keys', async () => {
    const r = (await rpc(proxy.url, 'tools/call', { name: 'structured', arguments: {} })).body.result!;
    assert.deepEqual(r['structuredContent'], { n: 1 });
    assert.equal((r['_meta'] as Record<string, unknown>)['com.example/trace'], 'abc');
    assert.equal(r['x-extra'], true);
    assert.equal(r['resultType'], 'complete');
  });

  it('adds the content array 2026-07-28 requires when a legacy result lacks it', async () => {
    const r = (await rpc(proxy.url, 'tools/call', { name: 'no-content', arguments: {} })).body.result!;
    assert.deepEqual(r['content'], []);
    assert.deepEqual(r['structuredContent'], { ok: true });
  });

  it('passes vendor _meta upstream but not the envelope or the progress token', async () => {
    const r = await rpc(proxy.url, 'tools/call', { name: 'meta', arguments: {} }, { meta: { 'com.example/tenant': 't1', traceparent: '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01' } });
    const seen = JSON.parse(textOf(r.body.result)) as Record<string, unknown>;
    assert.equal(seen['com.example/tenant'], 't1');
    assert.equal(seen['traceparent'], '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01');
    assert.ok(!Object.keys(seen).some((k) => k.startsWith('io.modelcontextprotocol/')));
  });

  it('gives the stdio child the proxy environment', async () => {
    assert.equal(textOf(await client.callTool({ name: 'env', arguments: { name: 'MRTR_TEST_MARKER' } })), 'MRTR_TEST_MARKER=passed-through');
  });

  it('translates legacy errors', async () => {
    const fail = async (code: number) => (await rpc(proxy.url, 'resources/read', { uri: `fixture://fail/${code}` })).body.error!;
    const notFound = await fail(-32002);
    assert.equal(notFound.code, -32602);
    assert.deepEqual(notFound.data, { uri: 'fixture://fail/-32002' });
    assert.equal(notFound.message, 'failure -32002', 'the SDK prefix "MCP error N:" is stripped');
    const reserved = await fail(-32050);
    assert.equal(reserved.code, -32603);
    assert.deepEqual(reserved.data, { upstreamCode: -32050, upstreamData: { uri: 'fixture://fail/-32050' } });
    const ordinary = await fail(-32600);
    assert.equal(ordinary.code, -32600);
    assert.equal(ordinary.message, 'failure -32600');
  });

  it('turns a legacy -32042 into a URL elicitation round and re-sends the call once accepted', async () => {
    const first = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'needs-url', arguments: {} }, { caps: ALL_CAPS }));
    const [key, req] = Object.entries(first.inputRequests)[0]!;
    assert.equal(req.method, 'elicitation/create');
    assert.equal(req.params!['mode'], 'url');
    assert.equal(req.params!['url'], 'https://example.com/authorize');
    assert.equal(req.params!['elicitationId'], undefined);
    const done = await rpc(proxy.url, 'tools/call', { name: 'needs-url', arguments: {}, requestState: first.requestState, inputResponses: { [key]: { action: 'accept' } } }, { caps: ALL_CAPS });
    assert.equal(textOf(done.body.result), 'authorized call done');
  });

  it('relays progress under the client token, and logs only when asked', async () => {
    const withToken = await rpc(proxy.url, 'tools/call', { name: 'progress', arguments: { steps: 3 } }, { meta: { progressToken: 'tok-1' } });
    const progress = withToken.notifications.filter((n) => n.method === 'notifications/progress');
    assert.deepEqual(progress.map((n) => [n.params!['progressToken'], n.params!['progress']]), [['tok-1', 1], ['tok-1', 2], ['tok-1', 3]]);
    const quiet = await rpc(proxy.url, 'tools/call', { name: 'log', arguments: { level: 'info', message: 'hello' } });
    assert.equal(quiet.notifications.length, 0);
    const loud = await rpc(proxy.url, 'tools/call', { name: 'log', arguments: { level: 'info', message: 'hello' } }, { meta: { 'io.modelcontextprotocol/logLevel': 'debug' } });
    assert.deepEqual(loud.notifications.map((n) => n.params!['data']), ['hello']);
    const filtered = await rpc(proxy.url, 'tools/call', { name: 'log', arguments: { level: 'info', message: 'hello' } }, { meta: { 'io.modelcontextprotocol/logLevel': 'error' } });
    assert.equal(filtered.notifications.length, 0);
  });

  it('keeps concurrent interactive calls apart', async () => {
    await expectCallsKeptApart(proxy.url, ['Ann', 'Bob', 'Cy', 'Di']);
  });
});
