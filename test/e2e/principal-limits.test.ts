// Per-principal limits over real HTTP with real tokens: one principal at its limit is refused with
// data.reason principal_limit, while another principal still gets its interactive call.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startAuthServer, type AuthServer, type TestClient } from '../support/auth-server.js';
import { textOf } from '../support/client.js';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';

const ALICE: TestClient = { clientId: 'alice', clientSecret: 'alice-secret', scope: 'mcp:tools' };
const BOB: TestClient = { clientId: 'bob', clientSecret: 'bob-secret', scope: 'mcp:tools' };
const CAROL: TestClient = { clientId: 'carol', clientSecret: 'carol-secret', scope: 'mcp:tools' };
const ELICIT = { elicitation: {} };

describe('per-principal limits', () => {
  let as: AuthServer;
  let proxy: ProxyProcess;
  before(async () => {
    as = await startAuthServer([ALICE, BOB, CAROL]);
    proxy = await startProxy([
      '--auth-issuer',
      as.issuer,
      '--max-interactions-per-principal',
      '1',
      '--max-calls-per-principal',
      '1',
      '--',
      process.execPath,
      FIXTURE,
    ]);
  });
  after(async () => {
    await proxy?.stop();
    await as?.close();
  });

  it('refuses a principal at its waiting limit and lets another in', async () => {
    const auth = async (c: TestClient) => ({ authorization: `Bearer ${(await as.token(c, { resource: proxy.url })).access_token}` });
    const [alice, bob] = [await auth(ALICE), await auth(BOB)];
    const waiting = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT, headers: alice }));
    const refused = await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT, headers: alice });
    assert.equal(refused.body.error?.code, -32603);
    assert.deepEqual(refused.body.error?.data, { reason: 'principal_limit', action: 'retry', limit: 'maxInteractionsPerPrincipal', max: 1 });
    assert.match(refused.body.error?.message ?? '', /--max-interactions-per-principal 1/);
    inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT, headers: bob }));

    // Alice can still answer her own interaction; then she is under her limits again.
    const answered = await rpc(
      proxy.url,
      'tools/call',
      {
        name: 'ask-name',
        arguments: {},
        requestState: waiting.requestState,
        inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } },
      },
      { caps: ELICIT, headers: alice },
    );
    assert.equal(textOf(answered.body.result), 'Hello, Ada!');
    assert.equal(textOf((await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: alice })).body.result), 'echo: x');
  });

  it('refuses a principal at its running limit while another runs', async () => {
    const auth = async (c: TestClient) => ({ authorization: `Bearer ${(await as.token(c, { resource: proxy.url })).access_token}` });
    // Bob still has an interaction waiting from the test above; Carol has nothing.
    const [alice, carol] = [await auth(ALICE), await auth(CAROL)];
    const slow = rpc(proxy.url, 'tools/call', { name: 'slow', arguments: { ms: 1500 } }, { headers: alice });
    await new Promise((r) => setTimeout(r, 300));
    const refused = await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { headers: alice });
    assert.deepEqual(refused.body.error?.data, { reason: 'principal_limit', action: 'retry', limit: 'maxCallsPerPrincipal', max: 1 });
    assert.equal(textOf((await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'y' } }, { headers: carol })).body.result), 'echo: y');
    assert.equal((await slow).status, 200);
  });
});
