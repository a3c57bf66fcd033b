// The proxy authenticates to an HTTP upstream as itself: a legacy fixture that records request
// headers proves that the client's token never reaches it and that the proxy's own
// client-credentials token (from a real authorization server) does, refreshed before it expires.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startAuthServer, type AuthServer, type TestClient } from '../support/auth-server.js';
import { textOf } from '../support/client.js';
import { writeConfig } from '../support/config.js';
import { startHttpFixture, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { rpc } from '../support/rpc.js';

const ALICE: TestClient = { clientId: 'alice', clientSecret: 'alice-secret', scope: 'mcp:tools' };
const PROXY_CLIENT: TestClient = { clientId: 'mrtr-proxy', clientSecret: 'proxy-secret-value', scope: 'upstream:read' };
/** Short enough that the proxy's token is replaced during the test (it refreshes 5 s before expiry). */
const TTL_S = 6;

function claimsOf(authorization: string | undefined): Record<string, unknown> {
  const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  assert.ok(token, `a bearer token upstream, got ${authorization}`);
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

describe('no token passthrough; client credentials to an HTTP upstream', () => {
  let as: AuthServer;
  let upstream: Running & { url: string };
  let proxy: ProxyProcess;
  before(async () => {
    as = await startAuthServer([ALICE, PROXY_CLIENT], { accessTokenTtlS: TTL_S });
    upstream = await startHttpFixture();
    const path = writeConfig(`
clientAuth: { issuer: "${as.issuer}", scopes: [mcp:tools] }
upstreams:
  tickets:
    http: { url: "${upstream.url}" }
    headers: { X-Team: support }
    auth: { tokenUrl: "${as.issuer}/token", clientId: mrtr-proxy, clientSecretEnv: TICKETS_SECRET, scope: "upstream:read", resource: "${upstream.url}" }
`);
    proxy = await startProxy(['--config', path], { TICKETS_SECRET: PROXY_CLIENT.clientSecret });
  });
  after(async () => {
    await proxy?.stop();
    await upstream?.stop();
    await as?.close();
  });

  const seenUpstream = async (token: string) => {
    const r = await rpc(proxy.url, 'tools/call', { name: 'headers', arguments: {} }, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return JSON.parse(textOf(r.body.result)) as Record<string, string>;
  };

  it("sends the proxy's own token upstream, never the client's", async () => {
    const client = (await as.token(ALICE, { resource: proxy.url })).access_token;
    const seen = await seenUpstream(client);
    assert.notEqual(seen['authorization'], `Bearer ${client}`);
    assert.ok(!Object.values(seen).some((v) => String(v).includes(client)), 'the client token is in no upstream header');
    const claims = claimsOf(seen['authorization']);
    assert.equal(claims['sub'], 'mrtr-proxy');
    assert.equal(claims['aud'], upstream.url);
    assert.equal(claims['scope'], 'upstream:read');
    assert.equal(seen['x-team'], 'support', 'static headers still go');
    assert.doesNotMatch(proxy.stderr(), /proxy-secret-value/);
  });

  it('replaces its token before it expires', async () => {
    const first = claimsOf((await seenUpstream((await as.token(ALICE, { resource: proxy.url })).access_token))['authorization']);
    await new Promise((r) => setTimeout(r, (TTL_S - 5) * 1000 + 500));
    const second = claimsOf((await seenUpstream((await as.token(ALICE, { resource: proxy.url })).access_token))['authorization']);
    assert.notEqual(second['jti'], first['jti'], 'a new token');
    assert.ok((second['exp'] as number) > (first['exp'] as number));
    assert.ok((first['exp'] as number) * 1000 > Date.now(), 'the old one had not expired yet');
  });
});
