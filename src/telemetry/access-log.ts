// The access log: one structured `info` line per front request (--access-log on|off). The
// principal is never written as it is: a keyed hash lets an operator tell principals apart and
// follow one across instances sharing the state key, without the log revealing who it was.
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { FrontRequest } from './front-request.js';
import { infoLineWriter, type Logger } from './logger.js';

export const ACCESS_LOG_MESSAGE = 'access';

export type PrincipalHasher = (principal: string) => string;

const MAX_KNOWN_PRINCIPALS = 4096;
const MAX_PRINCIPAL_LENGTH = 512;

/** A hasher keyed from `secret` (the state key), or from a random key when there is none. */
export function createPrincipalHasher(secret: Uint8Array = randomBytes(32)): PrincipalHasher {
  const key = Buffer.from(hkdfSync('sha256', secret, new Uint8Array(0), 'mrtr-proxy access-log principal', 32));
  // One HMAC per principal, not per request: a proxy serves few principals many times.
  const known = new Map<string, string>();
  return (principal) => {
    let tag = known.get(principal);
    if (tag === undefined) {
      tag = createHmac('sha256', key).update(principal).digest('hex').slice(0, 16);
      if (known.size >= MAX_KNOWN_PRINCIPALS) known.clear();
      if (principal.length <= MAX_PRINCIPAL_LENGTH) known.set(principal, tag);
    }
    return tag;
  };
}

export type AccessLogFields = {
  upstream: string;
  method: string;
  target?: string;
  /** The HTTP status (absent on stdio). */
  status?: number;
  code?: number;
  durationMs: number;
  round?: number;
  mode: string;
  /** `fast` when the fast lane answered (front/fast-lane.ts); absent for the official front. */
  lane?: 'fast';
  principal: string;
};

/** The line's fields. Pure. */
export function accessLogFields(request: FrontRequest, status: number | undefined, seconds: number, hash: PrincipalHasher): AccessLogFields {
  return {
    upstream: request.upstream,
    method: request.head.method,
    ...(request.head.target === undefined ? {} : { target: request.head.target }),
    ...(status === undefined ? {} : { status }),
    ...(request.code === undefined ? {} : { code: request.code }),
    durationMs: Math.round(seconds * 1e6) / 1000,
    ...(request.round === undefined ? {} : { round: request.round }),
    mode: request.mode ?? 'local',
    ...(request.fastLane ? { lane: 'fast' as const } : {}),
    principal: hash(request.principal),
  };
}

/** Writes access lines to `log` (a JSON-lines logger's are written directly: logger.ts infoLineWriter). */
export function accessLogWriter(log: Logger): (fields: AccessLogFields) => void {
  const write = infoLineWriter(log);
  return (fields) => write(ACCESS_LOG_MESSAGE, fields);
}
