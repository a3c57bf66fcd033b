// Reads one request body within its route's limits: at most MAX_BODY_BYTES, complete within the
// body timeout (only until the body is read: a long call's response is not timed here), and only
// while the route's bytes in flight stay under its budget. The body is decoded and parsed once,
// here; routes get the parsed message (and the bytes, if they relay them as received).
import type { IncomingMessage } from 'node:http';
import { decodeJsonBody } from '../protocol/json-body.js';
import { JSONRPC } from '../protocol/errors.js';
import type { Cancel, Clock } from '../clock.js';

export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface BodyLimits {
  bodyTimeoutMs: number;
  maxInflightBytes: number;
}

export type BodyResult = { ok: true; raw: Buffer | undefined; parsed: unknown } | { ok: false; status: number; code: number; message: string; close: boolean };

/** Bytes of request bodies received and not yet answered, per route. */
export class InflightBytes {
  private used = 0;

  get current(): number {
    return this.used;
  }

  /** Takes `n` bytes if they fit under `max`; false (and nothing taken) if not. */
  take(n: number, max: number): boolean {
    if (this.used + n > max) return false;
    this.used += n;
    return true;
  }

  give(n: number): void {
    this.used -= n;
  }
}

/**
 * Reads and parses the body. The bytes stay counted against `inflight` until `release` is
 * called (when the response ends); a refusal has released them already.
 */
export function readBody(
  req: IncomingMessage,
  limits: BodyLimits,
  inflight: InflightBytes,
  clock: Clock,
): { result: Promise<BodyResult>; release: () => void } {
  let held = 0;
  const release = () => {
    inflight.give(held);
    held = 0;
  };
  const reserve = (n: number) => {
    if (!inflight.take(n, limits.maxInflightBytes)) return false;
    held += n;
    return true;
  };
  const result = new Promise<BodyResult>((resolve) => {
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    const known = Number.isSafeInteger(declared) && declared >= 0;
    // With a declared length the chunks are copied into one buffer as they come: no second copy.
    const whole = known && declared > 0 && declared <= MAX_BODY_BYTES ? Buffer.allocUnsafe(declared) : undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    let cancelTimer: Cancel | undefined;
    const stop = () => {
      cancelTimer?.();
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAborted);
      req.off('aborted', onAborted);
    };
    const refuse = (status: number, code: number, message: string, close: boolean) => {
      stop();
      release();
      resolve({ ok: false, status, code, message, close });
    };
    // Node discards the rest of a refused body (the connection stays usable) unless it stalled or broke.
    const tooLarge = () => refuse(413, JSONRPC.INVALID_REQUEST, `Request body larger than ${MAX_BODY_BYTES} bytes`, false);
    const busy = () =>
      refuse(503, JSONRPC.INTERNAL_ERROR, `mrtr-proxy is receiving too many request bytes at once (limit ${limits.maxInflightBytes}); retry later`, false);
    function onData(chunk: Buffer): void {
      if (size + chunk.length > MAX_BODY_BYTES) return tooLarge();
      if (size + chunk.length > held && !reserve(size + chunk.length - held)) return busy();
      if (whole) chunk.copy(whole, size);
      else chunks.push(chunk);
      size += chunk.length;
    }
    function onEnd(): void {
      stop();
      const raw = whole ? whole.subarray(0, size) : Buffer.concat(chunks, size);
      chunks.length = 0;
      if (size === 0) return resolve({ ok: true, raw: undefined, parsed: undefined });
      const decoded = decodeJsonBody(raw, req.headers['content-type']);
      if (!decoded.ok) {
        release();
        return resolve({ ...decoded, close: false });
      }
      resolve({ ok: true, raw, parsed: decoded.value });
    }
    function onAborted(): void {
      refuse(400, JSONRPC.INVALID_REQUEST, 'the request body was cut off', true);
    }
    if (known && declared > MAX_BODY_BYTES) return tooLarge();
    // A declared length is taken up front, so a body that would not fit is refused before it is read.
    if (known && !reserve(declared)) return busy();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAborted);
    req.on('aborted', onAborted);
    cancelTimer = clock.after(limits.bodyTimeoutMs, () =>
      refuse(408, JSONRPC.INVALID_REQUEST, `the request body did not arrive within ${limits.bodyTimeoutMs / 1000} s`, true),
    );
  });
  return { result, release };
}
