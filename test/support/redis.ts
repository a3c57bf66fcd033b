// A real redis-server for tests: its own process on a free loopback port, no persistence, stopped
// afterwards. Tests skip loudly (with the reason) when the binary is not installed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBinary, freePort } from './ports.js';
import { startProcess, type Running } from './processes.js';

export const REDIS_SERVER = findBinary('redis-server');
export const NO_REDIS = REDIS_SERVER ? undefined : 'redis-server is not installed (Debian package redis-server; .ci/run installs it)';

export interface RedisProcess extends Running {
  url: string;
  port: number;
}

export async function startRedis(port?: number): Promise<RedisProcess> {
  if (!REDIS_SERVER) throw new Error(NO_REDIS);
  const p = port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-redis-'));
  // Redis logs to stdout and startProcess watches stderr: `exec` keeps the pid, so stop() reaches redis.
  const r = await startProcess(
    '/bin/sh',
    ['-c', 'exec "$0" "$@" 1>&2', REDIS_SERVER, '--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    /Ready to accept connections/,
  );
  return { ...r, url: `redis://127.0.0.1:${p}`, port: p };
}
