// A task's end written while the state store stalls: Redis frozen (SIGSTOP: a paused VM, a
// partition that keeps connections open), or its replies to the owner delayed past the owner's
// deadline. The write may apply late or apply before its reply comes, so another instance can read
// `completed` while the owner took its write as failed. No instance may then answer a status that
// goes back from one any instance has reported: the owner answers `state_store_unavailable` until
// the store settles the write, then `completed`, and never logs its own late write as another
// instance's end.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { hostedFixtureConfig } from '../support/config.js';
import { freePort } from '../support/ports.js';
import { type ProxyProcess, startInstance } from '../support/processes.js';
import { NO_REDIS, type RedisProcess, startRedis } from '../support/redis.js';
import { rpc, type RpcReply } from '../support/rpc.js';
import { skipOrFail } from '../support/skip.js';

const SKIP = skipOrFail('test/faults/task-store-stall.test.ts', NO_REDIS);
const CAPS = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };
const FINAL = new Set(['completed', 'failed', 'cancelled']);
/** Longer than the proxy's deadline for a store command (2 s). */
const STALL_MS = 4500;

/** A TCP relay to Redis whose replies can be held back: what a slow or congested link does to them. */
class SlowLink {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  delayMs = 0;
  port = 0;

  async start(target: number): Promise<void> {
    this.port = await freePort();
    this.server = createServer((client) => {
      const upstream = createConnection(target, '127.0.0.1');
      this.sockets.add(client).add(upstream);
      client.pipe(upstream);
      // Replies keep their order: each leaves no earlier than the one before it.
      let last = 0;
      upstream.on('data', (chunk: Buffer) => {
        const at = Math.max(Date.now() + this.delayMs, last);
        last = at;
        setTimeout(() => client.destroyed || client.write(chunk), at - Date.now());
      });
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('close', end).on('error', end);
      upstream.on('close', end).on('error', end);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

type Seen = { at: string; status?: string; reason?: string };

describe('a task whose end is written while the state store stalls', { skip: SKIP }, () => {
  let redis: RedisProcess;
  let link: SlowLink;
  let owner: ProxyProcess;
  let reader: ProxyProcess;

  before(async () => {
    redis = await startRedis();
    link = new SlowLink();
    await link.start(redis.port);
    const config = hostedFixtureConfig('{ tools: [ask-name], ttl: 600, pollInterval: 0.2 }');
    // The owner reaches Redis through the relay, the reader directly.
    const [a, b] = [await freePort(), await freePort()];
    [owner, reader] = await Promise.all([
      startInstance(a, `redis://127.0.0.1:${link.port}`, ['--config', config]),
      startInstance(b, redis.url, ['--config', config]),
    ]);
  });
  afterEach(() => {
    link.delayMs = 0;
    if (redis) process.kill(redis.child.pid!, 'SIGCONT');
  });
  after(async () => {
    await Promise.all([owner?.stop(), reader?.stop()]);
    await link?.stop();
    await redis?.stop();
  });

  const task = (url: string, method: string, taskId: string, extra: Record<string, unknown> = {}): Promise<RpcReply> =>
    rpc(url, method, { taskId, ...extra }, { caps: CAPS, headers: { 'mcp-name': taskId } });

  /** One tasks/get: the status, or the error's reason. */
  async function look(at: 'owner' | 'reader', taskId: string): Promise<Seen> {
    const reply = await task(at === 'owner' ? owner.url : reader.url, 'tasks/get', taskId);
    const error = reply.body.error as { data?: { reason?: string } } | undefined;
    if (error) return { at, reason: String(error.data?.reason) };
    return { at, status: String(reply.body.result?.['status']) };
  }

  /** A task on the owner, waiting for its user's name. */
  async function askingTask(): Promise<string> {
    const created = await rpc(owner.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: CAPS });
    const taskId = String((created.body.result as { taskId?: string } | undefined)?.taskId);
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
      if ((await look('owner', taskId)).status === 'input_required') return taskId;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail('the task never asked');
  }

  /**
   * Asks both instances, alternately, until both say `completed` (at most `ms`): what they said, in
   * order. An error may only be state_store_unavailable (resend later).
   */
  async function watch(taskId: string, ms: number): Promise<Seen[]> {
    const seen: Seen[] = [];
    const done = new Set<string>();
    for (const deadline = Date.now() + ms; Date.now() < deadline && done.size < 2; ) {
      for (const at of ['reader', 'owner'] as const) {
        const s = await look(at, taskId);
        seen.push(s);
        if (s.status === 'completed') done.add(at);
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    assert.equal(done.size, 2, `both instances end at completed: ${JSON.stringify(seen)}`);
    return seen;
  }

  /** No answer goes back from a final status any instance reported before it. */
  function neverBack(seen: Seen[]): void {
    const final = seen.findIndex((s) => s.status !== undefined && FINAL.has(s.status));
    for (const s of seen.slice(final)) {
      if (s.status !== undefined) assert.equal(s.status, 'completed', `after ${seen[final]!.at} said completed: ${JSON.stringify(seen)}`);
      else assert.equal(s.reason, 'state_store_unavailable', JSON.stringify(seen));
    }
  }

  async function answer(taskId: string): Promise<void> {
    const key = 'elicitation-1';
    const updated = await task(owner.url, 'tasks/update', taskId, { inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } } });
    assert.equal(updated.body.error, undefined, JSON.stringify(updated.body));
  }

  it('Redis frozen (SIGSTOP) as the end is written, then resumed: completed everywhere, never working again', async () => {
    const taskId = await askingTask();
    const mark = owner.stderr().length;
    process.kill(redis.child.pid!, 'SIGSTOP');
    await answer(taskId);
    await new Promise((r) => setTimeout(r, STALL_MS));
    process.kill(redis.child.pid!, 'SIGCONT');
    neverBack(await watch(taskId, 20_000));
    assert.doesNotMatch(owner.stderr().slice(mark), /written by another instance first/);
  });

  it("the owner's replies delayed past its deadline while the write applies at once: completed everywhere, never working again", async () => {
    const taskId = await askingTask();
    const mark = owner.stderr().length;
    link.delayMs = STALL_MS;
    await answer(taskId);
    // The write applied at once: the reader reads the end while the owner still waits for its reply.
    let read: Seen = { at: 'reader' };
    for (const deadline = Date.now() + 10_000; Date.now() < deadline && read.status !== 'completed'; ) {
      read = await look('reader', taskId);
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(read.status, 'completed');
    assert.deepEqual(await look('owner', taskId), { at: 'owner', reason: 'state_store_unavailable' }, 'the owner says nothing older than completed');
    link.delayMs = 0;
    neverBack([read, ...(await watch(taskId, 20_000))]);
    assert.doesNotMatch(owner.stderr().slice(mark), /written by another instance first/);
  });
});
