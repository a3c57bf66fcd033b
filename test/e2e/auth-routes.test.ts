// Client authentication per upstream (configuration file): each route is its own protected
// resource, with its own metadata document, audience and scopes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startAuthServer, type AuthServer, type TestClient } from '../support/auth-server.js';
import { writeConfig } from '../support/config.js';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { rpc } from '../support/rpc.js';

const OPS: TestClient = { clientId: 'ops', clientSecret: 'ops-secret', scope: 'mcp:tools mcp:admin' };
const USER: TestClient = { clientId: 'user', clientSecret: 'user-secret', scope: 'mcp:tools' };

describe('client authentication per upstream', () => {
  let as: AuthServer;
  let proxy: ProxyProcess;
  let origin: string;
  before(async () => {
    as = await startAuthServer([OPS, USER]);
    const path = writeConfig(`
clientAuth: { issuer: "${as.issuer}", scopes: [mcp:tools] }
default: main
upstreams:
  main: { stdio: { command: "${process.execPath}", args: ["${FIXTURE}"] } }
  admin:
    stdio: { command: "${process.execPath}", args: ["${FIXTURE}"] }
    clientAuth: { scopes: [mcp:tools, mcp:admin] }
`);
    proxy = await startProxy(['--config', path]);
    origin = new URL(proxy.url).origin;
  });
  after(async () => {
    await proxy?.stop();
    await as?.close();
  });

  it('publishes metadata per upstream path with its own resource and scopes', async () => {
    const r = await fetch(`${origin}/.well-known/oauth-protected-resource/servers/admin/mcp`);
    assert.deepEqual(await r.json(), {
      resource: `${origin}/servers/admin/mcp`,
      authorization_servers: [as.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: ['mcp:tools', 'mcp:admin'],
    });
    const unknown = await fetch(`${origin}/.well-known/oauth-protected-resource/servers/nope/mcp`);
    assert.equal(unknown.status, 404);
  });

  it("checks each route's audience and scopes", async () => {
    const admin = `${origin}/servers/admin/mcp`;
    const userToken = (await as.token(USER, { resource: admin })).access_token;
    const refused = await fetch(admin, { method: 'POST', headers: { authorization: `Bearer ${userToken}`, 'content-type': 'application/json' }, body: '{}' });
    assert.equal(refused.status, 403);
    assert.equal(
      refused.headers.get('www-authenticate'),
      `Bearer error="insufficient_scope", error_description="the token lacks the scope mcp:admin", scope="mcp:tools mcp:admin", resource_metadata="${origin}/.well-known/oauth-protected-resource/servers/admin/mcp"`,
    );
    const forMain = (await as.token(OPS, { resource: proxy.url })).access_token;
    const wrongAudience = await rpc(admin, 'tools/list', {}, { headers: { authorization: `Bearer ${forMain}` } });
    assert.equal(wrongAudience.status, 401, 'a token for /mcp is not good for another upstream');
    const good = (await as.token(OPS, { resource: admin })).access_token;
    assert.equal((await rpc(admin, 'tools/list', {}, { headers: { authorization: `Bearer ${good}` } })).status, 200);
    assert.equal((await rpc(proxy.url, 'tools/list', {}, { headers: { authorization: `Bearer ${forMain}` } })).status, 200);
  });

  it('leaves health endpoints open', async () => {
    assert.equal((await fetch(`${origin}/healthz`)).status, 200);
  });
});
