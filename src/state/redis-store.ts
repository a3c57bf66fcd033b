// The state shared by every instance that points at the same Redis (--state-store):
// - the single-use ledger of replay states: a state is consumed by an atomic SET NX with the
//   state's own expiry (PXAT);
// - task records and instance liveness (state/task-store.ts): each record lives as long as its
//   task's ttl (PXAT), a liveness key a few heartbeats (PX).
// The client never queues commands while disconnected and every command has a deadline, so an
// unreachable store makes a command reject at once: the bridge then fails the replay retry closed,
// and a task read on another instance says the store is unreachable.
//
// The client package is an optional dependency, loaded here and only for --state-store: an
// install without it (npm install --omit=optional) serves everything else.
import type { createClient } from 'redis';
import type { ConsumedLedger } from './ledger.js';
import type { TaskStore } from './task-store.js';

const KEY_PREFIX = 'mrtr-proxy:consumed:';
const TASK_PREFIX = 'mrtr-proxy:task:';
const ALIVE_PREFIX = 'mrtr-proxy:alive:';
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

  async putTask(handle: string, record: string, expiresAtMs: number): Promise<void> {
    await this.withDeadline(this.client.set(`${TASK_PREFIX}${handle}`, record, { expiration: { type: 'PXAT', value: Math.max(expiresAtMs, Date.now() + 1) } }));
  }

  async getTask(handle: string): Promise<string | undefined> {
    return (await this.withDeadline(this.client.get(`${TASK_PREFIX}${handle}`))) ?? undefined;
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
