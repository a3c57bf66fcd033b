// Proxy-hosted tasks under faults, on two proxy instances sharing keys and a real Redis, each asked
// directly (which instance answers is the point): the owner paused with SIGSTOP (a long GC pause, a
// frozen VM) while another instance forwards to it or reads its task, and past its liveness mark
// (another instance fails the task; it must never complete later); Redis restarted without
// persistence (the owner writes its records again), a record rolled back in Redis, a task that ends
// while Redis is away; what a client may send that it should not (a non-object inputResponses, a
// mismatched Mcp-Name quoting a huge id).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hostedFixtureConfig } from '../support/config.js';
import { freePort } from '../support/ports.js';
import { type ProxyProcess, startInstance } from '../support/processes.js';
import { createClient } from 'redis';
import { NO_REDIS, startRedis, type RedisProcess } from '../support/redis.js';
import { rpc, type RpcReply } from '../support/rpc.js';
import { skipOrFail } from '../support/skip.js';

const SKIP = skipOrFail('test/e2e/tasks-faults.test.ts', NO_REDIS);
const CAPS = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };

type Task = { taskId: string; status: string; result?: Record<string, unknown>; error?: { message: string } };

describe('proxy-hosted tasks under faults, two instances with Redis', () => {
  let redis: RedisProcess;
  const ports: number[] = [];
  const proxies: ProxyProcess[] = [];
  const url = (i: number) => `http://127.0.0.1:${ports[i]}/mcp`;
  const create = async (at: number, name: string, args: Record<string, unknown> = {}) => {
    const reply = await rpc(url(at), 'tools/call', { name, arguments: args }, { caps: CAPS });
    assert.equal(reply.body.result?.['resultType'], 'task', JSON.stringify(reply.body));
    return reply.body.result as unknown as Task;
  };
  const task = (at: number, method: string, taskId: string, extra: Record<string, unknown> = {}): Promise<RpcReply> =>
    rpc(url(at), method, { taskId, ...extra }, { caps: CAPS, headers: { 'mcp-name': taskId } });
  const get = async (at: number, taskId: string) => {
    const reply = await task(at, 'tasks/get', taskId);
    return (reply.body.result ?? {
      status: `error ${reply.body.error?.code} ${(reply.body.error?.data as { reason?: string } | undefined)?.reason}`,
    }) as unknown as Task;
  };
  /** Polls instance `at` until the task's status is `status` (within `ms`); every status seen on the way. */
  const until = async (at: number, taskId: string, status: string, ms = 15_000) => {
    const seen: string[] = [];
    for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      const got = await get(at, taskId);
      if (seen.at(-1) !== got.status) seen.push(got.status);
      if (got.status === status) return { task: got, seen };
    }
    assert.fail(`instance ${at} never read ${status}: ${seen.join(' → ')}`);
  };
  const pause = (i: number) => proxies[i]!.child.kill('SIGSTOP');
  const resume = (i: number) => proxies[i]!.child.kill('SIGCONT');

  before(async () => {
    if (SKIP) return;
    redis = await startRedis();
    const config = hostedFixtureConfig('{ tools: [ask-name, slow, hang, echo], ttl: 600, pollInterval: 0.2 }');
    for (let i = 0; i < 2; i++) ports.push(await freePort());
    proxies.push(...(await Promise.all([0, 1].map((i) => startInstance(ports[i]!, redis.url, ['--config', config])))));
  });
  after(async () => {
    for (const p of proxies) p.child.kill('SIGCONT');
    await Promise.all(proxies.map((p) => p.stop()));
    await redis?.stop();
  });

  it('refuses a non-object inputResponses with -32602, and quotes no more than the start of a mismatched id', { skip: SKIP }, async () => {
    const created = await create(0, 'ask-name');
    for (const bad of ['yes', null, ['a']]) {
      const reply = await task(0, 'tasks/update', created.taskId, { inputResponses: bad });
      assert.equal(reply.body.error?.code, -32602, JSON.stringify(reply.body));
    }
    const huge = 'x'.repeat(6000);
    const reply = await rpc(url(0), 'tasks/get', { taskId: huge }, { caps: CAPS, headers: { 'mcp-name': `y${huge}` } });
    assert.equal(reply.body.error?.code, -32020, JSON.stringify(reply.body).slice(0, 300));
    assert.ok(JSON.stringify(reply.body).length < 1000, `${JSON.stringify(reply.body).length} bytes of error`);
    await task(0, 'tasks/cancel', created.taskId);
  });

  it('answers a tasks/update forwarded to a paused owner with owner_unreachable within a bounded time', { skip: SKIP, timeout: 60_000 }, async () => {
    const created = await create(0, 'hang');
    pause(0);
    try {
      const started = Date.now();
      const reply = await task(1, 'tasks/update', created.taskId, { inputResponses: {} });
      const took = Date.now() - started;
      assert.equal(reply.body.error?.code, -32603, JSON.stringify(reply.body));
      assert.equal((reply.body.error?.data as { reason?: string } | undefined)?.reason, 'owner_unreachable');
      // The answer limit (5 s) and the store's read, with room for a loaded machine; never the client's own timeout.
      assert.ok(took < 9000, `answered after ${took} ms`);
      // Its tasks/get is read from Redis meanwhile.
      const got = await task(1, 'tasks/get', created.taskId);
      assert.equal((got.body.result as unknown as Task).status, 'working', JSON.stringify(got.body));
    } finally {
      resume(0);
    }
    const cancelled = await task(1, 'tasks/cancel', created.taskId);
    assert.equal(cancelled.body.result?.['resultType'], 'complete', JSON.stringify(cancelled.body));
  });

  it('never completes a task another instance failed while its owner was paused past its liveness mark', { skip: SKIP, timeout: 90_000 }, async () => {
    const created = await create(0, 'slow', { ms: 6000 });
    pause(0);
    let failed: Task;
    try {
      // The owner's mark lasts 15 s from its last heartbeat (every 5 s): then the other instance fails the task.
      failed = (await until(1, created.taskId, 'failed', 30_000)).task;
    } finally {
      resume(0);
    }
    assert.match(failed.error?.message ?? '', /stopped before the task ended/);
    // The owner resumes with its call's answer waiting (the legacy child ran on): neither instance ever reads completed.
    const seen: string[] = [];
    for (const deadline = Date.now() + 8000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      for (const at of [0, 1]) seen.push(`${at}:${(await get(at, created.taskId)).status}`);
    }
    assert.ok(!seen.some((s) => s.endsWith('completed')), seen.join(' '));
    assert.ok(seen.includes('0:failed'), `the owner reads failed too: ${seen.join(' ')}`);
    assert.match(proxies[0]!.stderr(), /not marked alive in the state store for too long|written by another instance first/);
  });

  it('writes its running and finished tasks again after Redis restarts without persistence', { skip: SKIP, timeout: 90_000 }, async () => {
    const running = await create(0, 'hang');
    const finished = await create(0, 'slow', { ms: 10 });
    await until(1, finished.taskId, 'completed');
    await redis.stop();
    redis = await startRedis(redis.port);
    // Gone from Redis until the owner's next heartbeat (5 s) writes both again.
    const back = await until(1, running.taskId, 'working', 20_000);
    // On the way: the store reconnecting (unavailable), then the record not yet written again (expired).
    assert.ok(
      back.seen.every((s) => /working|state_store_unavailable|expired/.test(s)),
      back.seen.join(' → '),
    );
    assert.equal((await until(1, finished.taskId, 'completed', 20_000)).task.status, 'completed');
    assert.match(proxies[0]!.stderr(), /task records written again/);
    await task(1, 'tasks/cancel', running.taskId);
    await until(1, running.taskId, 'cancelled');
  });

  it('shows a task that ended while Redis was away only once Redis has it, everywhere alike', { skip: SKIP, timeout: 90_000 }, async () => {
    const created = await create(0, 'slow', { ms: 1500 });
    await redis.stop();
    try {
      await new Promise((r) => setTimeout(r, 2500));
      // Completed in the owner, not yet in Redis: the owner does not say completed.
      assert.equal((await get(0, created.taskId)).status, 'working');
      assert.match((await get(1, created.taskId)).status, /state_store_unavailable/);
    } finally {
      redis = await startRedis(redis.port);
    }
    const done = await until(1, created.taskId, 'completed', 20_000);
    assert.equal((await get(0, created.taskId)).status, 'completed', done.seen.join(' → '));
  });

  it('replaces a record rolled back in Redis at the next heartbeat, and refuses one whose version field was changed', {
    skip: SKIP,
    timeout: 60_000,
  }, async () => {
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const before = new Set(await client.keys('mrtr-proxy:task:*'));
      const created = await create(0, 'ask-name');
      await until(1, created.taskId, 'input_required');
      const key = (await client.keys('mrtr-proxy:task:*')).find((k) => !before.has(k))!;
      const mine = { k: key, h: await client.hGetAll(key) };
      assert.equal(mine.h['f'], '0', JSON.stringify(Object.keys(mine.h)));
      await task(0, 'tasks/update', created.taskId, { inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } } });
      await until(1, created.taskId, 'completed');

      await client.hSet(mine.k, mine.h);
      // Instance 1 read the completed record: it never answers from the older one.
      const healed = await until(1, created.taskId, 'completed', 15_000);
      assert.ok(
        healed.seen.every((s) => s === 'completed' || /state_store_unavailable/.test(s)),
        healed.seen.join(' → '),
      );

      await client.hSet(mine.k, 'v', '999');
      assert.match((await get(1, created.taskId)).status, /-32602/);
    } finally {
      await client.quit();
    }
  });

  it('fails a task whose result is larger than a task keeps, for every instance', { skip: SKIP }, async () => {
    const created = await create(0, 'echo', { text: 'x'.repeat(2_200_000) });
    const failed = (await until(1, created.taskId, 'failed')).task;
    assert.match(failed.error?.message ?? '', /larger than the proxy keeps for a task \(--max-task-result-bytes 2097152\)/);
    assert.equal(failed.result, undefined);
    assert.deepEqual(await get(0, created.taskId), failed);
  });
});
