// Held calls reachable from any instance: a retry that lands on an instance that does not hold the
// call is forwarded to the owner named in the state; an owner that is gone or restarted gives the
// client `owner_gone` within 2 s. Real proxy processes sharing a key, legacy fixture over stdio.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startAuthServer, type AuthServer, type TestClient } from '../support/auth-server.js';
import { textOf } from '../support/client.js';
import { freePort } from '../support/ports.js';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';

const CAPS = { elicitation: { form: {} } };
const call = (url: string, name: string, extra: Record<string, unknown> = {}) => rpc(url, 'tools/call', { name, arguments: {}, ...extra }, { caps: CAPS });
const named = (requestState: string) => ({ requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } } });

async function instance(port?: number, extra: string[] = []): Promise<ProxyProcess & { port: number }> {
  const p = port ?? (await freePort());
  const proxy = await startProxy(['--port', String(p), '--advertise-url', `http://127.0.0.1:${p}`, ...extra, '--', process.execPath, FIXTURE]);
  return { ...proxy, port: p };
}

describe('held calls across instances', () => {
  let a: ProxyProcess & { port: number };
  let b: ProxyProcess & { port: number };
  before(async () => {
    [a, b] = await Promise.all([instance(), instance()]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('forwards a retry that lands on a non-owner to the owner, which completes the call', async () => {
    const held = inputRequired(await call(a.url, 'ask-name'));
    const done = await call(b.url, 'ask-name', named(held.requestState));
    assert.equal(textOf(done.body.result), 'Hello, Ada!');
    const again = await call(a.url, 'ask-name', named(held.requestState));
    assert.deepEqual(again.body.error?.data, { reason: 'completed', action: 'resend' }, 'the owner completed it');
  });

  it('refuses a forward whose authentication does not hold', async () => {
    const held = inputRequired(await call(b.url, 'ask-name'));
    const forged = await rpc(
      a.url,
      'tools/call',
      { name: 'ask-name', arguments: {}, ...named(held.requestState) },
      { caps: CAPS, headers: { 'x-mrtr-forward-auth': `${Date.now()}.${'A'.repeat(43)}` } },
    );
    assert.equal(forged.status, 403);
  });

  it('gives owner_gone within 2 s when the owner restarted, and when it was killed; replayed calls carry on', async () => {
    const held = inputRequired(await call(a.url, 'ask-name'));
    await a.stop();
    a = await instance(a.port);
    const restarted = await call(b.url, 'ask-name', named(held.requestState));
    assert.equal(restarted.body.error?.code, -32602);
    assert.deepEqual(restarted.body.error?.data, { reason: 'owner_gone', action: 'resend' });
    assert.match(restarted.body.error!.message, /has restarted/);

    const held2 = inputRequired(await call(a.url, 'ask-name'));
    const replayed = inputRequired(await call(a.url, 'lookup'));
    await a.stop('SIGKILL');
    const started = Date.now();
    const gone = await call(b.url, 'ask-name', named(held2.requestState));
    assert.ok(Date.now() - started < 2000, `owner_gone took ${Date.now() - started} ms`);
    assert.deepEqual(gone.body.error?.data, { reason: 'owner_gone', action: 'resend' });
    assert.match(gone.body.error!.message, /cannot be reached/);
    const next = inputRequired(
      await call(b.url, 'lookup', {
        requestState: replayed.requestState,
        inputResponses: { 'elicitation-1': { action: 'accept', content: { city: 'Oslo' } } },
      }),
    );
    assert.ok(next.inputRequests['elicitation-2']);
    a = await instance(a.port);
  });
});

describe('held calls across instances with client authentication', () => {
  const ALICE: TestClient = { clientId: 'alice', clientSecret: 'alice-secret', scope: 'mcp:tools' };
  const BOB: TestClient = { clientId: 'bob', clientSecret: 'bob-secret', scope: 'mcp:tools' };
  // Behind a load balancer every instance is the same resource: tokens name the public URL.
  const AUDIENCE = 'https://mcp.example.test/mcp';
  let as: AuthServer;
  let a: ProxyProcess;
  let b: ProxyProcess;
  const authed = async (url: string, who: TestClient, extra: Record<string, unknown> = {}) => {
    const token = (await as.token(who, { resource: AUDIENCE })).access_token;
    return rpc(url, 'tools/call', { name: 'ask-name', arguments: {}, ...extra }, { caps: CAPS, headers: { authorization: `Bearer ${token}` } });
  };
  const authInstance = async () => {
    const port = await freePort();
    return startProxy([
      '--port',
      String(port),
      '--advertise-url',
      `http://127.0.0.1:${port}`,
      '--auth-issuer',
      as.issuer,
      '--auth-audience',
      AUDIENCE,
      '--auth-scope',
      'mcp:tools',
      '--',
      process.execPath,
      FIXTURE,
    ]);
  };
  before(async () => {
    as = await startAuthServer([ALICE, BOB]);
    [a, b] = await Promise.all([authInstance(), authInstance()]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await as?.close();
  });

  it('forwards the principal: the owner completes the call for its principal and refuses another', async () => {
    const held = inputRequired(await authed(a.url, ALICE));
    const stolen = await authed(b.url, BOB, named(held.requestState));
    assert.equal(stolen.body.error?.code, -32602);
    assert.deepEqual(stolen.body.error?.data, { reason: 'wrong_principal', action: 'stop' });
    const done = await authed(b.url, ALICE, named(held.requestState));
    assert.equal(textOf(done.body.result), 'Hello, Ada!');
    const anonymous = await call(b.url, 'ask-name', named(held.requestState));
    assert.equal(anonymous.status, 401, 'the non-owner checks the token before it forwards anything');
    assert.doesNotMatch(a.stderr() + b.stderr(), /alice-secret|Bearer ey/, 'no credential in either log');
  });
});

describe('a retry forwarded to a paused owner', () => {
  let a: ProxyProcess & { port: number };
  let b: ProxyProcess & { port: number };
  before(async () => {
    [a, b] = await Promise.all([instance(undefined, ['--call-timeout', '2']), instance(undefined, ['--call-timeout', '2'])]);
  });
  after(async () => {
    a?.child.kill('SIGCONT');
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('gives owner_gone once the owner has not started answering within --call-timeout, not when the client gives up', { timeout: 30_000 }, async () => {
    const held = inputRequired(await call(a.url, 'ask-name'));
    a.child.kill('SIGSTOP');
    try {
      const started = Date.now();
      const reply = await call(b.url, 'ask-name', named(held.requestState));
      const took = Date.now() - started;
      assert.deepEqual(reply.body.error?.data, { reason: 'owner_gone', action: 'resend' });
      // The round's 2 s and the connection's 2 s, with room for a loaded machine.
      assert.ok(took >= 1500 && took < 9000, `answered after ${took} ms`);
    } finally {
      a.child.kill('SIGCONT');
    }
  });
});
