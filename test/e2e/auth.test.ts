// Client authentication over real HTTP: a real authorization server (oidc-provider) issuing JWT
// access tokens by client credentials, the proxy checking them, every refusal on the wire, the
// principal bound into requestState, key rotation, and the official client's own OAuth support.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startAuthServer, type AuthServer, type TestClient } from '../support/auth-server.js';
import { newClient, textOf } from '../support/client.js';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { inputRequired, post, rpc } from '../support/rpc.js';

const ALICE: TestClient = { clientId: 'alice', clientSecret: 'alice-secret', scope: 'mcp:tools' };
const BOB: TestClient = { clientId: 'bob', clientSecret: 'bob-secret', scope: 'mcp:tools' };
const CAROL: TestClient = { clientId: 'carol', clientSecret: 'carol-secret', scope: 'upstream:read' };
const ELICIT = { elicitation: {} };

describe('client authentication (OAuth 2.1 resource server)', () => {
  let as: AuthServer;
  let proxy: ProxyProcess;
  let metadataUrl: string;
  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
  const tokenOf = async (c: TestClient, resource = proxy.url) => (await as.token(c, { resource })).access_token;

  before(async () => {
    as = await startAuthServer([ALICE, BOB, CAROL]);
    proxy = await startProxy(['--auth-issuer', as.issuer, '--auth-scope', 'mcp:tools', '--log-level', 'debug', '--', process.execPath, FIXTURE]);
    metadataUrl = `${new URL(proxy.url).origin}/.well-known/oauth-protected-resource/mcp`;
  });
  after(async () => {
    await proxy?.stop();
    await as?.close();
  });

  it('answers a request without a token with 401 and a pointer to its metadata', async () => {
    const r = await fetch(proxy.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(r.status, 401);
    assert.equal(r.headers.get('www-authenticate'), `Bearer scope="mcp:tools", resource_metadata="${metadataUrl}"`);
  });

  it('serves RFC 9728 metadata naming the resource, the issuer and the scopes', async () => {
    for (const url of [metadataUrl, `${new URL(proxy.url).origin}/.well-known/oauth-protected-resource`]) {
      const r = await fetch(url);
      assert.equal(r.status, 200);
      assert.deepEqual(await r.json(), {
        resource: proxy.url,
        authorization_servers: [as.issuer],
        bearer_methods_supported: ['header'],
        scopes_supported: ['mcp:tools'],
      });
    }
  });

  it('refuses a malformed Authorization header with 401', async () => {
    const r = await rpc(proxy.url, 'tools/list', {}, { headers: { authorization: 'Basic YWxpY2U6eA==' } });
    assert.equal(r.status, 401);
    assert.match(String((r.body as Record<string, unknown>)['error']), /invalid_request/);
  });

  it('refuses a token for another resource, one that is not a JWT, and one it cannot verify, with invalid_token', async () => {
    const cases: Array<[string, RegExp]> = [
      [await tokenOf(ALICE, 'http://127.0.0.1:1/mcp'), /aud/],
      [(await as.token(ALICE)).access_token, /not a JWT/],
      [`${(await tokenOf(ALICE)).slice(0, -4)}AAAA`, /signature/],
    ];
    for (const [token, why] of cases) {
      const r = await fetch(proxy.url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
      assert.equal(r.status, 401);
      const header = r.headers.get('www-authenticate') ?? '';
      assert.match(header, /^Bearer error="invalid_token", error_description="[^"]+", scope="mcp:tools", resource_metadata="/);
      assert.match(header, why);
    }
    assert.doesNotMatch(proxy.stderr(), /eyJ/, 'no token reaches the log');
  });

  it('refuses a token without the required scope with 403 insufficient_scope naming it', async () => {
    const r = await rpc(proxy.url, 'tools/list', {}, bearer(await tokenOf(CAROL)));
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, { error: 'insufficient_scope', error_description: 'the token lacks the scope mcp:tools' });
  });

  it('binds requestState to the principal: another client cannot resume it, the owner can', async () => {
    const [alice, bob] = [await tokenOf(ALICE), await tokenOf(BOB)];
    const first = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT, ...bearer(alice) }));
    const retry = {
      name: 'ask-name',
      arguments: {},
      requestState: first.requestState,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } },
    };
    const stolen = await rpc(proxy.url, 'tools/call', retry, { caps: ELICIT, ...bearer(bob) });
    assert.equal(stolen.body.error?.code, -32602);
    assert.deepEqual(stolen.body.error?.data, { reason: 'wrong_principal', action: 'stop' });
    const own = await rpc(proxy.url, 'tools/call', retry, { caps: ELICIT, ...bearer(alice) });
    assert.equal(textOf(own.body.result), 'Hello, Ada!');
    assert.match(proxy.stderr(), /"principal":"[0-9a-f]{16}"/, 'logs carry a hash of the principal');
    assert.doesNotMatch(proxy.stderr(), /alice/, 'never the principal itself');
  });

  it("authenticates the legacy-client path on the same endpoint, and keeps one principal out of another's session", async () => {
    const message = (id: number, method: string, params: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const init = message(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    assert.equal((await post(proxy.url, init, headers)).status, 401);
    const alice = `Bearer ${await tokenOf(ALICE)}`;
    const opened = await fetch(proxy.url, { method: 'POST', headers: { ...headers, authorization: alice }, body: init });
    assert.equal(opened.status, 200);
    const sid = opened.headers.get('mcp-session-id')!;
    await opened.body?.cancel();
    const list = message(2, 'tools/list', {});
    const session = { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    const bob = await post(proxy.url, list, { ...session, authorization: `Bearer ${await tokenOf(BOB)}` });
    assert.equal(bob.status, 404, 'another principal does not find the session');
    const own = await post(proxy.url, list, { ...session, authorization: alice });
    assert.equal(own.status, 200);
    assert.ok(Array.isArray((own.body.result as Record<string, unknown>)['tools']));
  });

  it('accepts tokens signed with a key the issuer rotated to, without a restart', async () => {
    assert.equal((await rpc(proxy.url, 'tools/list', {}, bearer(await tokenOf(ALICE)))).status, 200);
    await as.rotateKey();
    // jose refetches the key set for an unknown kid at most once a second.
    await new Promise((r) => setTimeout(r, 1100));
    const rotated = await tokenOf(ALICE);
    assert.equal(JSON.parse(Buffer.from(rotated.split('.')[0]!, 'base64url').toString())['kid'], 'key-2');
    const r = await rpc(proxy.url, 'tools/list', {}, bearer(rotated));
    assert.equal(r.status, 200, JSON.stringify(r.body));
  });

  it('lets the official client authenticate by itself and complete an interactive call', async () => {
    const client = newClient(ELICIT, { elicit: () => ({ action: 'accept', content: { name: 'Grace' } }) });
    const authProvider = new ClientCredentialsProvider({
      clientId: BOB.clientId,
      clientSecret: BOB.clientSecret,
      scope: 'mcp:tools',
      expectedIssuer: as.issuer,
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url), { authProvider }));
    try {
      const raw = await client.callTool({ name: 'ask-name', arguments: {} }, { allowInputRequired: true } as never);
      assert.equal((raw as Record<string, unknown>)['resultType'], 'input_required');
      const result = await client.callTool({ name: 'ask-name', arguments: {} });
      assert.equal(textOf(result), 'Hello, Grace!');
    } finally {
      await client.close();
    }
  });
});

describe('client authentication against an issuer with OpenID Connect discovery only', () => {
  it('falls back from RFC 8414 to OpenID Connect discovery', async () => {
    const as = await startAuthServer([ALICE]);
    as.hideRfc8414();
    // The discovery that worked is logged at debug.
    const proxy = await startProxy(['--log-level', 'debug', '--auth-issuer', as.issuer, '--', process.execPath, FIXTURE]);
    try {
      const token = (await as.token(ALICE, { resource: proxy.url })).access_token;
      const r = await rpc(proxy.url, 'tools/list', {}, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.match(proxy.stderr(), /authorization server discovered/);
    } finally {
      await proxy.stop();
      await as.close();
    }
  });
});
