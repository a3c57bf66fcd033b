// The proxy in front of a legacy Streamable HTTP server (v1 SDK, sessionful): change notifications
// to listen subscribers, what the proxy sends upstream, a server that goes away (rest: test/contract).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { textOf } from '../support/client.js';
import { startHttpFixture, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { inputRequired, listen, rpc } from '../support/rpc.js';

describe('bridge over a Streamable HTTP legacy server', () => {
  let upstream: Running & { url: string };
  let proxy: ProxyProcess;
  before(async () => {
    upstream = await startHttpFixture();
    proxy = await startProxy(['--upstream', upstream.url]);
  });
  after(async () => {
    await proxy?.stop();
    await upstream?.stop();
  });

  it("never passes the client's credentials or headers upstream", async () => {
    const r = await rpc(
      proxy.url,
      'tools/call',
      { name: 'headers', arguments: {} },
      { headers: { authorization: 'Bearer client-secret', cookie: 'sid=1', 'x-custom': 'y' } },
    );
    const seen = JSON.parse(textOf(r.body.result)) as Record<string, string>;
    assert.equal(seen['authorization'], undefined);
    assert.equal(seen['cookie'], undefined);
    assert.equal(seen['x-custom'], undefined);
    assert.ok(seen['mcp-session-id'], 'the proxy uses its own legacy session');
    assert.doesNotMatch(proxy.stderr(), /client-secret/);
  });

  it('relays resources/updated and list_changed to listen subscribers', async () => {
    const stream = await listen(proxy.url, { resourceSubscriptions: ['fixture://static'], toolsListChanged: true });
    try {
      await stream.next((m) => m['method'] === 'notifications/subscriptions/acknowledged');
      await new Promise((r) => setTimeout(r, 200)); // let the legacy subscribe land
      await rpc(proxy.url, 'tools/call', { name: 'touch', arguments: { uri: 'fixture://static' } });
      const updated = await stream.next((m) => m['method'] === 'notifications/resources/updated');
      assert.equal((updated['params'] as Record<string, unknown>)['uri'], 'fixture://static');
      assert.equal((updated['params'] as Record<string, Record<string, unknown>>)['_meta']!['io.modelcontextprotocol/subscriptionId'], 'listen-1');
      await rpc(proxy.url, 'tools/call', { name: 'add-tool', arguments: { name: 'late-tool' } });
      await stream.next((m) => m['method'] === 'notifications/tools/list_changed');
    } finally {
      stream.close();
    }
  });

  it('fails calls clearly when the legacy server goes away, without hanging', async () => {
    const pending = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: { elicitation: {} } }));
    await upstream.stop('SIGKILL');
    const retry = await rpc(
      proxy.url,
      'tools/call',
      {
        name: 'ask-name',
        arguments: {},
        requestState: pending.requestState,
        inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'X' } } },
      },
      { caps: { elicitation: {} } },
    );
    assert.equal(retry.body.error?.code, -32603, JSON.stringify(retry.body));
    const fresh = await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'x' } });
    assert.equal(fresh.body.error?.code, -32603, JSON.stringify(fresh.body));
  });
});
