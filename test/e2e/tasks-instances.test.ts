// Proxy-hosted tasks across two proxy instances sharing keys and a real Redis, behind a real nginx
// doing plain round robin, the legacy fixture over stdio (it has no tasks of its own): a task is
// created on one instance and polled, answered and cancelled through the other (its tasks/get read
// from Redis, its tasks/update and tasks/cancel forwarded to the owner); an owner that stops fails
// its running tasks for every instance.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textOf } from '../support/client.js';
import { NO_NGINX, startNginx, type NginxProcess } from '../support/nginx.js';
import { freePort } from '../support/ports.js';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { NO_REDIS, startRedis, type RedisProcess } from '../support/redis.js';
import { rpc, type RpcReply } from '../support/rpc.js';

const SKIP = NO_NGINX ?? NO_REDIS;
if (SKIP) process.stderr.write(`SKIPPED test/e2e/tasks-instances.test.ts: ${SKIP}\n`);
const CAPS = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };

type Task = { taskId: string; status: string; result?: Record<string, unknown>; error?: { message: string }; inputRequests?: Record<string, unknown> };

describe('proxy-hosted tasks on two instances behind nginx, with Redis', () => {
  let redis: RedisProcess;
  let nginx: NginxProcess;
  const ports: number[] = [];
  const proxies: ProxyProcess[] = [];
  /** Which instances logged `line` since `marks` (the stderr lengths taken before). */
  const where = (line: RegExp, at: number[]) => proxies.flatMap((p, i) => (line.test(p.stderr().slice(at[i])) ? [i] : []));
  const marks = () => proxies.map((p) => p.stderr().length);
  const create = async (name: string, args: Record<string, unknown> = {}) => {
    const reply = await rpc(nginx.url, 'tools/call', { name, arguments: args }, { caps: CAPS });
    assert.equal(reply.body.result?.['resultType'], 'task', JSON.stringify(reply.body));
    return reply.body.result as unknown as Task;
  };
  const task = (method: string, taskId: string, extra: Record<string, unknown> = {}): Promise<RpcReply> =>
    rpc(nginx.url, method, { taskId, ...extra }, { caps: CAPS, headers: { 'mcp-name': taskId } });
  /** tasks/get through nginx; says which instance read it from Redis (undefined: its owner answered). */
  const get = async (taskId: string) => {
    const at = marks();
    const reply = await task('tasks/get', taskId);
    assert.equal(reply.body.error, undefined, JSON.stringify(reply.body));
    return { task: reply.body.result as unknown as Task, fromStore: where(/task read from the state store/, at)[0] };
  };
  /** Polls through nginx until the task's status is `status`; the last answer. */
  const until = async (taskId: string, status: string) => {
    for (let i = 0; i < 100; i++) {
      const seen = await get(taskId);
      if (seen.task.status === status) return seen;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`the task never became ${status}`);
  };

  before(async () => {
    if (SKIP) return;
    redis = await startRedis();
    const dir = mkdtempSync(join(tmpdir(), 'mrtr-tasks-'));
    const config = join(dir, 'proxy.yaml');
    writeFileSync(
      config,
      [
        'upstreams:',
        '  fixture:',
        '    stdio:',
        `      command: ${JSON.stringify(process.execPath)}`,
        `      args: [${JSON.stringify(FIXTURE)}]`,
        '    tasks:',
        '      tools: [ask-name, slow, hang]',
        '      ttl: 600',
        '      pollInterval: 0.2',
        '',
      ].join('\n'),
    );
    for (let i = 0; i < 2; i++) ports.push(await freePort());
    const start = (i: number) =>
      startProxy([
        '--config',
        config,
        '--port',
        String(ports[i]),
        '--advertise-url',
        `http://127.0.0.1:${ports[i]}`,
        '--state-store',
        redis.url,
        '--log-level',
        'debug',
      ]);
    proxies.push(...(await Promise.all([0, 1].map(start))));
    nginx = await startNginx(ports);
  });
  after(async () => {
    await nginx?.stop();
    await Promise.all(proxies.map((p) => p.stop()));
    await redis?.stop();
  });

  it('creates a task on one instance; the other polls it, answers its question and reads its result', { skip: SKIP }, async () => {
    const at = marks();
    const created = await create('ask-name');
    // The question may already be in when the task is made.
    assert.match(created.status, /^(working|input_required)$/);
    const [owner, ...more] = where(/"message":"task created"/, at);
    assert.equal(more.length, 0);
    const other = 1 - owner!;

    // Read where it was not created: from Redis, the question included.
    let seen = await until(created.taskId, 'input_required');
    while (seen.fromStore !== other) seen = await get(created.taskId);
    assert.deepEqual(Object.keys(seen.task.inputRequests ?? {}), ['elicitation-1'], JSON.stringify(seen));

    // Round robin: the request after one its owner answered goes to the other instance.
    while ((await get(created.taskId)).fromStore !== undefined);
    const before = marks();
    const updated = await task('tasks/update', created.taskId, { inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } } });
    assert.deepEqual(updated.body.result?.['resultType'], 'complete', JSON.stringify(updated.body));
    assert.deepEqual(where(/forwarding a task request to the instance that runs the task/, before), [other], 'the other instance forwarded the answer');
    assert.deepEqual(where(/task questions answered/, before), [owner], 'the owner delivered it');

    let done = await until(created.taskId, 'completed');
    while (done.fromStore !== other) done = await get(created.taskId);
    assert.equal(textOf(done.task.result as never), 'Hello, Ada!');
  });

  it('cancels a running task through the other instance', { skip: SKIP }, async () => {
    const at = marks();
    const created = await create('hang');
    const owner = where(/"message":"task created"/, at)[0]!;
    const other = 1 - owner;
    while ((await get(created.taskId)).fromStore !== undefined);
    const before = marks();
    const cancelled = await task('tasks/cancel', created.taskId);
    assert.equal(cancelled.body.result?.['resultType'], 'complete', JSON.stringify(cancelled.body));
    assert.deepEqual(where(/forwarding a task request/, before), [other]);
    const seen = await until(created.taskId, 'cancelled');
    assert.equal(seen.task.result, undefined);
    // Cancelling a task that is over is the same empty ack.
    const again = await task('tasks/cancel', created.taskId);
    assert.equal(again.body.result?.['resultType'], 'complete');
  });

  it('fails the running tasks of an owner that stops, for every instance', { skip: SKIP }, async () => {
    const at = marks();
    const created = await create('hang');
    const owner = where(/"message":"task created"/, at)[0]!;
    const other = 1 - owner;
    await proxies[owner]!.stop('SIGTERM');
    // nginx now sends everything to the instance left.
    const seen = await until(created.taskId, 'failed');
    assert.equal(seen.fromStore, other);
    assert.match(seen.task.error?.message ?? '', /stopped/);
  });
});
