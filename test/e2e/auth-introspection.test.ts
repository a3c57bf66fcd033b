// Opaque access tokens: the proxy introspects them (RFC 7662) at a real authorization server with
// its own client credentials, checks scopes, and caches active answers until the token expires.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startAuthServer, type AuthServer, type TestClient } from '../support/auth-server.js';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';

const ALICE: TestClient = { clientId: 'alice', clientSecret: 'alice-secret', scope: 'mcp:tools' };
const CAROL: TestClient = { clientId: 'carol', clientSecret: 'carol-secret', scope: 'upstream:read' };
const PROXY: TestClient = { clientId: 'mrtr-proxy', clientSecret: 'introspection-secret', scope: 'upstream:read' };

describe('opaque tokens by introspection', () => {
  let as: AuthServer;
  let proxy: ProxyProcess;
  const call = (token: string, name = 'echo', args: Record<string, unknown> = { text: 'x' }) =>
    rpc(proxy.url, 'tools/call', { name, arguments: args }, { headers: { authorization: `Bearer ${token}` }, caps: { elicitation: {} } });

  before(async () => {
    as = await startAuthServer([ALICE, CAROL, PROXY]);
    proxy = await startProxy(
      [
        '--auth-issuer',
        as.issuer,
        '--auth-introspection-url',
        `${as.issuer}/token/introspection`,
        '--auth-scope',
        'mcp:tools',
        '--',
        process.execPath,
        FIXTURE,
      ],
      { MRTR_AUTH_CLIENT_ID: PROXY.clientId, MRTR_AUTH_CLIENT_SECRET: PROXY.clientSecret },
    );
  });
  after(async () => {
    await proxy?.stop();
    await as?.close();
  });

  it('accepts an active opaque token and binds interactions to its client', async () => {
    const token = (await as.token(ALICE)).access_token;
    assert.equal(token.split('.').length, 1, 'an opaque token');
    const first = inputRequired(await call(token, 'ask-name', {}));
    const other = (await as.token(ALICE)).access_token;
    const retry = await rpc(
      proxy.url,
      'tools/call',
      {
        name: 'ask-name',
        arguments: {},
        requestState: first.requestState,
        inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } },
      },
      { headers: { authorization: `Bearer ${other}` }, caps: { elicitation: {} } },
    );
    assert.equal(retry.status, 200, 'another token of the same client is the same principal');
    assert.equal(retry.body.error, undefined, JSON.stringify(retry.body));
  });

  it('refuses an unknown token and one without the scope', async () => {
    const unknown = await call('not-a-token-the-server-issued');
    assert.equal(unknown.status, 401);
    assert.deepEqual(unknown.body, { error: 'invalid_token', error_description: 'the authorization server says the token is not active' });
    const carol = await call((await as.token(CAROL)).access_token);
    assert.equal(carol.status, 403);
  });

  it('caches an active answer until the token expires', async () => {
    const token = (await as.token(ALICE)).access_token;
    assert.equal((await call(token)).status, 200);
    await as.close();
    assert.equal((await call(token)).status, 200, 'answered from the cache with the server gone');
    const fresh = await call('another-opaque-token');
    assert.equal(fresh.status, 503, 'a token not in the cache cannot be checked');
  });
});
