// Legacy sessions and principals: a server that keeps state per session
// (@modelcontextprotocol/server-sequential-thinking keeps a thought history) shows each
// authenticated principal its own, as each principal's own legacy client would; with
// --session-scope shared the principals share the proxy's sessions, and so the history.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startAuthServer, type AuthServer, type TestClient } from '../support/auth-server.js';
import { ROOT, startProxy, type ProxyProcess } from '../support/processes.js';
import { rpc } from '../support/rpc.js';

const ALICE: TestClient = { clientId: 'alice', clientSecret: 'alice-secret', scope: 'mcp:tools' };
const BOB: TestClient = { clientId: 'bob', clientSecret: 'bob-secret', scope: 'mcp:tools' };
const THINKING = `${ROOT}node_modules/@modelcontextprotocol/server-sequential-thinking/dist/index.js`;

describe('legacy sessions are kept to one principal', () => {
  let as: AuthServer;
  const proxies: ProxyProcess[] = [];

  before(async () => {
    as = await startAuthServer([ALICE, BOB]);
  });
  after(async () => {
    for (const p of proxies) await p.stop();
    await as?.close();
  });

  async function proxyWith(extra: string[]): Promise<ProxyProcess> {
    const args = ['--auth-issuer', as.issuer, '--auth-scope', 'mcp:tools', '--env', 'DISABLE_THOUGHT_LOGGING=true', ...extra];
    const proxy = await startProxy([...args, '--', process.execPath, THINKING]);
    proxies.push(proxy);
    return proxy;
  }

  /** The thought history length the server reports after `who` adds a first thought. */
  async function think(proxy: ProxyProcess, who: TestClient): Promise<number> {
    const token = (await as.token(who, { resource: proxy.url })).access_token;
    const arguments_ = { thought: `${who.clientId} starts.`, thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true };
    const r = await rpc(proxy.url, 'tools/call', { name: 'sequentialthinking', arguments: arguments_ }, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const result = r.body['result'] as { content: Array<{ text: string }> };
    return (JSON.parse(result.content[0]!.text) as { thoughtHistoryLength: number }).thoughtHistoryLength;
  }

  it('shows each principal its own thought history by default', async () => {
    const proxy = await proxyWith([]);
    assert.equal(await think(proxy, ALICE), 1);
    assert.equal(await think(proxy, BOB), 1, "bob's session holds none of alice's thoughts");
    assert.equal(await think(proxy, ALICE), 2, "alice's session still holds hers");
  });

  it('shares sessions, and so the history, among principals with --session-scope shared', async () => {
    const proxy = await proxyWith(['--session-scope', 'shared']);
    assert.equal(await think(proxy, ALICE), 1);
    assert.equal(await think(proxy, BOB), 2);
  });
});
