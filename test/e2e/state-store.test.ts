// The shared single-use ledger in a real redis-server: one consumption per state across
// instances, fail closed when the store is gone, held calls unaffected.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RedisStore } from '../../src/state/redis-store.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { textOf } from '../support/client.js';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { NO_REDIS, startRedis, type RedisProcess } from '../support/redis.js';
import { inputRequired, rpc } from '../support/rpc.js';
import { until } from '../support/wait.js';
import { skipOrFail } from '../support/skip.js';

const CAPS = { elicitation: { form: {} } };
const call = (url: string, name: string, extra: Record<string, unknown> = {}) => rpc(url, 'tools/call', { name, arguments: {}, ...extra }, { caps: CAPS });
const city = (requestState: string, name = 'Oslo') => ({ requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: { city: name } } } });

const SKIP = skipOrFail('test/e2e/state-store.test.ts', NO_REDIS);

describe('RedisStore against redis-server', () => {
  let redis: RedisProcess;
  before(async () => {
    if (!NO_REDIS) redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });

  it('consumes an id once, atomically, until it expires; rejects quickly when the store is gone', { skip: SKIP }, async () => {
    const ledger = await RedisStore.open(new URL(redis.url), createLogger('error'));
    try {
      await until(
        async () =>
          ledger.consume('probe', Date.now() + 60_000).then(
            () => true,
            () => false,
          ),
        5000,
        'redis reachable',
      );
      const at = Date.now() + 60_000;
      const results = await Promise.all(Array.from({ length: 10 }, () => ledger.consume('state-1', at)));
      assert.equal(results.filter(Boolean).length, 1);
      assert.equal(await ledger.consume('state-2', Date.now() + 300), true);
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(await ledger.consume('state-2', Date.now() + 60_000), true, 'the entry expired with its state');
      await redis.stop('SIGKILL');
      const started = Date.now();
      await assert.rejects(ledger.consume('state-3', Date.now() + 60_000));
      assert.ok(Date.now() - started < 2500);
    } finally {
      await ledger.close();
    }
  });
});

describe('three instances sharing a redis state store', () => {
  let redis: RedisProcess;
  const proxies: ProxyProcess[] = [];
  before(async () => {
    if (NO_REDIS) return;
    redis = await startRedis();
    for (let i = 0; i < 3; i++) proxies.push(await startProxy(['--state-store', redis.url, '--', process.execPath, FIXTURE]));
  });
  after(async () => {
    await Promise.all(proxies.map((p) => p.stop()));
    await redis?.stop();
  });

  it('lets exactly one of 20 concurrent copies of a replay retry proceed across the instances', { skip: SKIP }, async () => {
    const r1 = inputRequired(await call(proxies[0]!.url, 'lookup'));
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => call(proxies[i % 3]!.url, 'lookup', city(r1.requestState))));
    const proceeded = replies.filter((r) => r.body.result?.['resultType'] === 'input_required');
    const consumed = replies.filter((r) => (r.body.error?.data as { reason?: string } | undefined)?.reason === 'consumed');
    assert.equal(proceeded.length, 1, JSON.stringify(replies.map((r) => r.body.error?.message ?? r.body.result?.['resultType'])));
    assert.equal(consumed.length, 19);
  });

  it('fails replay retries closed when the store is unreachable, and keeps serving held calls', { skip: SKIP }, async () => {
    const r1 = inputRequired(await call(proxies[1]!.url, 'lookup'));
    await redis.stop('SIGKILL');
    const started = Date.now();
    const retry = await call(proxies[2]!.url, 'lookup', city(r1.requestState));
    assert.equal(retry.body.error?.code, -32603);
    assert.equal((retry.body.error!.data as { reason: string }).reason, 'state_store_unavailable');
    assert.match(retry.body.error!.message, /state store cannot be reached/);
    assert.doesNotMatch(retry.body.error!.message, /offline|ECONNREFUSED|closed|within/i, "the store's own words are logged, not sent");
    assert.ok(Date.now() - started < 3000, 'never a hang');
    const held = inputRequired(await call(proxies[2]!.url, 'ask-name'));
    const done = await call(proxies[2]!.url, 'ask-name', {
      requestState: held.requestState,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } },
    });
    assert.equal(textOf(done.body.result), 'Hello, Ada!');
    assert.match(proxies[2]!.stderr(), /state store unreachable/);
    assert.doesNotMatch(proxies[2]!.stderr(), /redis:\/\/[^"]*@/);
  });
});
