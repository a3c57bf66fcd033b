// Three proxy instances sharing keys and a real Redis, behind a real nginx doing plain round robin,
// the legacy fixture over stdio: replayed rounds on different instances, held retries forwarded to
// their owner, an owner killed, every instance restarted, duplicates across instances.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { textOf } from '../support/client.js';
import { NO_NGINX, startNginx, type NginxProcess } from '../support/nginx.js';
import { freePort } from '../support/ports.js';
import { FIXTURE, instanceLogs, startHttpFixture, startInstance, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { NO_REDIS, startRedis, type RedisProcess } from '../support/redis.js';
import { inputRequired, rpc } from '../support/rpc.js';
import { skipOrFail } from '../support/skip.js';

const SKIP = skipOrFail('test/e2e/several-instances.test.ts', NO_NGINX ?? NO_REDIS);
const CAPS = { elicitation: { form: {} } };
const call = (url: string, name: string, extra: Record<string, unknown> = {}) => rpc(url, 'tools/call', { name, arguments: {}, ...extra }, { caps: CAPS });
const answer = (requestState: string, key: string, content: Record<string, string>) => ({
  requestState,
  inputResponses: { [key]: { action: 'accept', content } },
});

describe('three instances behind nginx', () => {
  let redis: RedisProcess;
  let nginx: NginxProcess;
  const ports: number[] = [];
  const proxies: ProxyProcess[] = [];
  const start = (i: number) => startInstance(ports[i]!, redis.url, ['--', process.execPath, FIXTURE]);
  const { where, marks } = instanceLogs(proxies);

  before(async () => {
    if (SKIP) return;
    redis = await startRedis();
    for (let i = 0; i < 3; i++) ports.push(await freePort());
    proxies.push(...(await Promise.all([0, 1, 2].map(start))));
    nginx = await startNginx(ports);
  });
  after(async () => {
    await nginx?.stop();
    await Promise.all(proxies.map((p) => p.stop()));
    await redis?.stop();
  });

  it('runs a three-round replayed call whose every round lands on a different instance', { skip: SKIP }, async () => {
    const at = marks();
    const r1 = inputRequired(await call(nginx.url, 'lookup'));
    const r2 = inputRequired(await call(nginx.url, 'lookup', answer(r1.requestState, 'elicitation-1', { city: 'Oslo' })));
    const r3 = inputRequired(await call(nginx.url, 'lookup', answer(r2.requestState, 'elicitation-2', { street: 'Storgata' })));
    const done = await call(nginx.url, 'lookup', answer(r3.requestState, 'elicitation-3', { number: '7' }));
    assert.match(textOf(done.body.result), /^Oslo, Storgata 7/);
    assert.deepEqual(where(/interaction let go for replay/, at), [0, 1, 2], 'each round was let go by another instance');
  });

  it('completes a held call whose retry lands on a non-owner (forwarded to the owner)', { skip: SKIP }, async () => {
    const at = marks();
    const held = inputRequired(await call(nginx.url, 'ask-name'));
    const done = await call(nginx.url, 'ask-name', answer(held.requestState, 'elicitation-1', { name: 'Ada' }));
    assert.equal(textOf(done.body.result), 'Hello, Ada!');
    assert.equal(where(/interaction suspended/, at).length, 1);
    assert.deepEqual(where(/interaction resumed/, at), where(/interaction suspended/, at), 'the owner resumed it');
    const forwarders = where(/forwarding a retry to the instance that holds its call/, at);
    assert.equal(forwarders.length, 1, 'the retry reached another instance, which forwarded it');
    assert.notDeepEqual(forwarders, where(/interaction suspended/, at));
  });

  it('lets exactly one of 20 concurrent duplicates of a retry proceed', { skip: SKIP }, async () => {
    const r1 = inputRequired(await call(nginx.url, 'lookup'));
    const replies = await Promise.all(Array.from({ length: 20 }, () => call(nginx.url, 'lookup', answer(r1.requestState, 'elicitation-1', { city: 'Rome' }))));
    assert.equal(replies.filter((r) => r.body.result?.['resultType'] === 'input_required').length, 1);
    assert.equal(replies.filter((r) => (r.body.error?.data as { reason?: string } | undefined)?.reason === 'consumed').length, 19);
  });

  it('kills an owner with SIGKILL: its replayed call completes elsewhere, its held call gets owner_gone within 2 s', { skip: SKIP }, async () => {
    const owner = proxies[0]!;
    const held = inputRequired(await call(owner.url, 'ask-name'));
    const replayed = inputRequired(await call(owner.url, 'lookup'));
    await owner.stop('SIGKILL');
    const started = Date.now();
    const gone = await call(nginx.url, 'ask-name', answer(held.requestState, 'elicitation-1', { name: 'Ada' }));
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
    assert.deepEqual(gone.body.error?.data, { reason: 'owner_gone', action: 'resend' });
    const next = inputRequired(await call(nginx.url, 'lookup', answer(replayed.requestState, 'elicitation-1', { city: 'Lima' })));
    assert.match(String(next.inputRequests['elicitation-2']?.params?.['message']), /^Street in Lima/);
    proxies[0] = await start(0);
  });

  it('completes a replayed call when every instance restarted between two rounds', { skip: SKIP }, async () => {
    const r1 = inputRequired(await call(nginx.url, 'lookup'));
    for (let i = 0; i < 3; i++) {
      await proxies[i]!.stop();
      proxies[i] = await start(i);
    }
    const r2 = inputRequired(await call(nginx.url, 'lookup', answer(r1.requestState, 'elicitation-1', { city: 'Kyiv' })));
    assert.match(String(r2.inputRequests['elicitation-2']?.params?.['message']), /^Street in Kyiv/);
    const again = await call(nginx.url, 'lookup', answer(r1.requestState, 'elicitation-1', { city: 'Kyiv' }));
    assert.deepEqual(again.body.error?.data, { reason: 'consumed', action: 'stop' }, 'the ledger in Redis outlived every instance');
  });
});

describe('three instances behind nginx, legacy server over Streamable HTTP', () => {
  let redis: RedisProcess;
  let nginx: NginxProcess;
  let fixture: Running & { url: string };
  const proxies: ProxyProcess[] = [];
  before(async () => {
    if (SKIP) return;
    [redis, fixture] = await Promise.all([startRedis(), startHttpFixture()]);
    const ports = [await freePort(), await freePort(), await freePort()];
    proxies.push(
      ...(await Promise.all(
        ports.map((p) =>
          startProxy([
            '--port',
            String(p),
            '--advertise-url',
            `http://127.0.0.1:${p}`,
            '--state-store',
            redis.url,
            '--log-level',
            'debug',
            '--upstream',
            fixture.url,
          ]),
        ),
      )),
    );
    nginx = await startNginx(ports);
  });
  after(async () => {
    await nginx?.stop();
    await Promise.all(proxies.map((p) => p.stop()));
    await Promise.all([redis?.stop(), fixture?.stop()]);
  });

  it('runs a replayed call across the instances and forwards a held retry to its owner', { skip: SKIP }, async () => {
    const at = proxies.map((p) => p.stderr().length);
    const r1 = inputRequired(await call(nginx.url, 'lookup'));
    const r2 = inputRequired(await call(nginx.url, 'lookup', answer(r1.requestState, 'elicitation-1', { city: 'Oslo' })));
    const r3 = inputRequired(await call(nginx.url, 'lookup', answer(r2.requestState, 'elicitation-2', { street: 'Storgata' })));
    const done = await call(nginx.url, 'lookup', answer(r3.requestState, 'elicitation-3', { number: '7' }));
    assert.match(textOf(done.body.result), /^Oslo, Storgata 7/);
    const letGo = proxies.filter((p, i) => /interaction let go for replay/.test(p.stderr().slice(at[i])));
    assert.equal(letGo.length, 3);
    const held = inputRequired(await call(nginx.url, 'ask-name'));
    const named = await call(nginx.url, 'ask-name', answer(held.requestState, 'elicitation-1', { name: 'Ada' }));
    assert.equal(textOf(named.body.result), 'Hello, Ada!');
  });
});
