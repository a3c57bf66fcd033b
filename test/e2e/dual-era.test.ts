// Both protocol eras on one endpoint: a legacy client (v1 SDK, initialize + session) and a
// 2026-07-28 client (v2, pinned) at the same time against one proxy, over a stdio and over an
// HTTP legacy server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectClient, textOf } from '../support/client.js';
import { FIXTURE, startHttpFixture, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { post } from '../support/rpc.js';
import { until } from '../support/wait.js';

async function legacyClient(url: string, name: string, clientName = 'legacy-e2e') {
  const client = new LegacyClient({ name: clientName, version: '1' }, { capabilities: { elicitation: {}, sampling: {}, roots: {} } });
  const seen: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (r) => {
    seen.push(r.method);
    return { action: 'accept', content: { name, color: 'plum' } };
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (r) => {
    seen.push(r.method);
    return { role: 'assistant', content: { type: 'text', text: 'legacy sample' }, model: 'legacy-model' };
  });
  client.setRequestHandler(ListRootsRequestSchema, async (r) => {
    seen.push(r.method);
    return { roots: [{ uri: 'file:///legacy' }] };
  });
  // The client's standalone (GET) stream to the proxy: a notification that belongs to no request
  // in flight is relayed there, and dropped while it is not open yet.
  let standaloneOpen = false;
  const transport = new LegacyHttpTransport(new URL(url), {
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      if (init?.method === 'GET' && res.status === 200) standaloneOpen = true;
      return res;
    },
  });
  await client.connect(transport);
  return { client, transport, seen, standaloneOpen: () => standaloneOpen };
}

for (const kind of ['stdio', 'http'] as const) {
  describe(`both eras on one endpoint (${kind} legacy server)`, () => {
    let upstream: (Running & { url: string }) | undefined;
    let proxy: ProxyProcess;
    before(async () => {
      if (kind === 'http') upstream = await startHttpFixture();
      proxy = await startProxy(kind === 'http' ? ['--upstream', upstream!.url] : ['--', process.execPath, FIXTURE]);
    });
    after(async () => {
      await proxy?.stop();
      await upstream?.stop();
    });

    it('serves a legacy and a modern client at the same time', async () => {
      const legacy = await legacyClient(proxy.url, 'Old');
      const modern = await connectClient(proxy.url, { elicitation: {} }, { elicit: () => ({ action: 'accept', content: { name: 'New' } }) });
      try {
        assert.equal(legacy.client.getServerVersion()?.name, 'fixture-legacy');
        assert.ok(legacy.transport.sessionId, 'the legacy client has a session');
        const [a, b] = await Promise.all([legacy.client.callTool({ name: 'ask-name', arguments: {} }), modern.callTool({ name: 'ask-name', arguments: {} })]);
        assert.equal(textOf(a), 'Hello, Old!');
        assert.equal(textOf(b), 'Hello, New!');
        assert.deepEqual(legacy.seen, ['elicitation/create'], 'the legacy server asked the legacy client itself');
        const all = await legacy.client.callTool({ name: 'ask-all', arguments: {} });
        assert.equal(textOf(all), 'color=plum model=legacy-model said=legacy sample roots=file:///legacy');
      } finally {
        await modern.close();
        await legacy.transport.terminateSession();
        await legacy.client.close();
      }
    });

    it('relays every notification to the legacy client and ends its session on DELETE', async () => {
      const clientName = `legacy-e2e-notified-${kind}`;
      const legacy = await legacyClient(proxy.url, 'Old', clientName);
      let changes = 0;
      legacy.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
      await until(legacy.standaloneOpen, 5000, "the legacy client's standalone stream");
      if (upstream) {
        // An HTTP legacy server sends tools/list_changed on the session's standalone (GET) stream and
        // drops it while that stream is not open yet (as it would for a direct legacy client): wait
        // for the stream the proxy opens upstream for this client's session.
        const initialized = new RegExp(`fixture session (\\S+) initialized by ${clientName}\n`);
        await until(() => initialized.test(upstream!.stderr()), 5000, "the legacy client's session upstream");
        const upstreamSid = initialized.exec(upstream.stderr())![1]!;
        await until(() => upstream!.stderr().includes(`fixture standalone stream open ${upstreamSid}\n`), 5000, 'its standalone stream upstream');
      }
      for (let i = 1; i <= 5; i++) {
        await legacy.client.callTool({ name: 'add-tool', arguments: { name: `t-${kind}-${i}` } });
        await until(() => changes >= i, 5000, `tools/list_changed number ${i} at the legacy client`);
      }
      assert.equal(changes, 5, 'one tools/list_changed per added tool');
      const sid = legacy.transport.sessionId!;
      await legacy.transport.terminateSession();
      await legacy.client.close();
      // The session is gone: the legacy rule is 404, and the client initializes again.
      const r = await post(proxy.url, JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }), {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sid,
        'mcp-protocol-version': '2025-11-25',
      });
      assert.equal(r.status, 404);
      assert.match(proxy.stderr(), /legacy client session ended/);
    });
  });
}

describe('legacy client sessions that are abandoned', () => {
  it('are closed after --idle-session-ttl with nothing open, taking their legacy session along', async () => {
    const proxy = await startProxy(['--idle-session-ttl', '1', '--', process.execPath, FIXTURE]);
    try {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const init = await fetch(proxy.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      });
      const sid = init.headers.get('mcp-session-id')!;
      await init.text();
      assert.ok(sid);
      const withSession = { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
      const list = await post(proxy.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }), withSession);
      assert.equal(list.status, 200);
      await until(() => /legacy client session ended/.test(proxy.stderr()), 10_000, 'the idle session closing');
      const gone = await post(proxy.url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }), withSession);
      assert.equal(gone.status, 404);
      assert.match(proxy.stderr(), /legacy client session idle: closing it/);
      assert.match(proxy.stderr(), /legacy client session ended/);
    } finally {
      await proxy.stop();
    }
  });
});

describe("legacy clients' own sessions", () => {
  it('count among --max-sessions with the pool: past it a legacy client is refused, and a call waits until one ends', async () => {
    const proxy = await startProxy(['--max-sessions', '1', '--', process.execPath, FIXTURE]);
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const initialize = (id: number) =>
      fetch(proxy.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      });
    try {
      const first = await initialize(1);
      const sid = first.headers.get('mcp-session-id');
      await first.text();
      assert.ok(sid, 'the first legacy client has its session');
      const second = await initialize(2);
      assert.equal(second.status, 503);
      const refused = (await second.json()) as { error: { message: string } };
      assert.match(refused.error.message, /--max-sessions \(1\) is in use/);

      const modern = await connectClient(proxy.url, {});
      let settled = false;
      const call = modern.callTool({ name: 'echo', arguments: { text: 'after' } }).finally(() => (settled = true));
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(settled, false, 'the call waits for a session while the legacy client holds the only one');
      const ended = await fetch(proxy.url, { method: 'DELETE', headers: { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' } });
      assert.ok(ended.ok, `DELETE answered ${ended.status}`);
      assert.equal(textOf(await call), 'echo: after');
      await modern.close();
    } finally {
      await proxy.stop();
    }
  });
});
