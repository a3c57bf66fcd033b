// The state shared by every instance that points at the same Redis (--state-store):
// - the single-use ledger of replay states: a state is consumed by an atomic SET NX with the
//   state's own expiry (PXAT);
// - task records and instance liveness (state/task-store.ts): each record lives as long as its
//   task's ttl (PXAT), a liveness key a few heartbeats (PX); a record is written only by the
//   compare-and-set scripts below, so a final status is never overwritten.
// The client never queues commands while disconnected and every command has a deadline, so an
// unreachable store makes a command reject at once: the bridge then fails the replay retry closed,
// and a task read on another instance says the store is unreachable.
//
// The client package is an optional dependency, loaded here and only for --state-store: an
// install without it (npm install --omit=optional) serves everything else.
import type { createClient } from 'redis';
import type { ConsumedLedger } from './ledger.js';
import { type StoredTask, type TaskStore, WriteNotSent, type Writer } from './task-store.js';

const KEY_PREFIX = 'mrtr-proxy:consumed:';
const TASK_PREFIX = 'mrtr-proxy:task:';
const ALIVE_PREFIX = 'mrtr-proxy:alive:';

// A task key is a hash: r the sealed record, v its version, f "1" once its status is final. The two
// writes apply task-store.ts mayPut atomically. ARGV: record, version, final, expiry (ms), and for
// a reader the version it read.
const OWNER_PUT = `
if redis.call('HGET', KEYS[1], 'f') == '1' then return 0 end
redis.call('HSET', KEYS[1], 'r', ARGV[1], 'v', ARGV[2], 'f', ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
return 1`;
const READER_PUT = `
if redis.call('HGET', KEYS[1], 'f') ~= '0' or redis.call('HGET', KEYS[1], 'v') ~= ARGV[5] then return 0 end
redis.call('HSET', KEYS[1], 'r', ARGV[1], 'v', ARGV[2], 'f', ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
return 1`;
const VERSIONS = `
local out = {}
for i, key in ipairs(KEYS) do out[i] = redis.call('HGET', key, 'v') end
return out`;
/** Longest a consume may take before the store counts as unreachable. */
export const STORE_DEADLINE_MS = 2000;

export interface StoreLog {
  warn(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  debug(message: string, meta?: Record<string, unknown>): void;
}

/** The redis package cannot be loaded: the message says what to install. */
export class StoreClientMissing extends Error {
  override readonly name = 'StoreClientMissing';
}

export class RedisStore implements ConsumedLedger, TaskStore {
  private readonly client: ReturnType<typeof createClient>;
  private state: 'connecting' | 'up' | 'down' = 'connecting';

  /** Loads the client package (StoreClientMissing without it), then connects in the background. */
  static async open(url: URL, log: StoreLog): Promise<RedisStore> {
    let redis: typeof import('redis');
    try {
      redis = await import('redis');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
      throw new StoreClientMissing(
        `--state-store ${url.protocol}// needs the redis package, an optional dependency that is not installed: npm install redis (where mrtr-proxy is installed), or install mrtr-proxy without --omit=optional`,
      );
    }
    return new RedisStore(redis.createClient, url, log);
  }

  /** Connects in the background: the proxy starts (and holds calls) while the store is down. */
  private constructor(create: typeof createClient, url: URL, log: StoreLog) {
    this.client = create({
      url: url.href,
      disableOfflineQueue: true,
      socket: { connectTimeout: STORE_DEADLINE_MS, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000) },
    });
    // Log a change of state once, not every reconnect attempt; never the URL's password.
    this.client.on('error', (err: Error) => {
      if (this.state !== 'down')
        log.warn('state store unreachable: replay retries, and tasks read on other instances, fail until it is back', { error: err.message });
      this.state = 'down';
    });
    // The first connection is start-up detail (debug); coming back after a failure is news (info).
    this.client.on('ready', () => {
      const where = { host: url.hostname, port: url.port || '6379' };
      if (this.state === 'down') log.info('state store reachable again', where);
      else log.debug('state store connected', where);
      this.state = 'up';
    });
    this.client.connect().catch(() => {});
  }

  async consume(id: string, expiresAtMs: number): Promise<boolean> {
    const set = this.client.set(`${KEY_PREFIX}${id}`, '1', {
      condition: 'NX',
      expiration: { type: 'PXAT', value: Math.max(expiresAtMs, Date.now() + 1000) },
    });
    return (await this.withDeadline(set)) === 'OK';
  }

  async putTask(handle: string, task: StoredTask, expiresAtMs: number, writer: Writer): Promise<boolean> {
    // Not connected: the client refuses the command without sending it (disableOfflineQueue).
    if (!this.client.isReady) throw new WriteNotSent(`the state store is not connected (${this.state})`);
    const at = String(Math.max(expiresAtMs, Date.now() + 1));
    const args = [task.record, String(task.version), task.final ? '1' : '0', at];
    const script = writer.kind === 'owner' ? OWNER_PUT : READER_PUT;
    if (writer.kind === 'reader') args.push(String(writer.expected));
    return (await this.withDeadline(this.client.eval(script, { keys: [`${TASK_PREFIX}${handle}`], arguments: args }))) === 1;
  }

  async dropTask(handle: string): Promise<void> {
    await this.withDeadline(this.client.del(`${TASK_PREFIX}${handle}`));
  }

  async getTask(handle: string): Promise<StoredTask | undefined> {
    const [record, version, final] = await this.withDeadline(this.client.hmGet(`${TASK_PREFIX}${handle}`, ['r', 'v', 'f']));
    if (typeof record !== 'string' || typeof version !== 'string') return undefined;
    return { record, version: Number(version), final: final === '1' };
  }

  async versions(handles: readonly string[]): Promise<Array<number | undefined>> {
    if (handles.length === 0) return [];
    const got = (await this.withDeadline(this.client.eval(VERSIONS, { keys: handles.map((h) => `${TASK_PREFIX}${h}`) }))) as unknown[];
    return got.map((v) => (typeof v === 'string' ? Number(v) : undefined));
  }

  async markAlive(instance: string, ttlMs: number): Promise<void> {
    await this.withDeadline(this.client.set(`${ALIVE_PREFIX}${instance}`, '1', { expiration: { type: 'PX', value: ttlMs } }));
  }

  async isAlive(instance: string): Promise<boolean> {
    return (await this.withDeadline(this.client.exists(`${ALIVE_PREFIX}${instance}`))) === 1;
  }

  private async withDeadline<T>(command: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${STORE_DEADLINE_MS} ms`)), STORE_DEADLINE_MS);
    });
    try {
      return await Promise.race([command, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
