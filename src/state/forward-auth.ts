// Instance-to-instance authentication for forwarded retries, with no new secret to distribute: the
// key is derived from the state key (HKDF-SHA256), so every instance that can open a state can
// prove it to the owner. A forward carries `TIMESTAMP.MAC` over the timestamp, path and a digest
// of the body; the owner accepts it for a minute, with any of its state keys (rotation).
import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export const FORWARD_HEADER = 'x-mrtr-forward-auth';
const MAX_SKEW_MS = 60_000;

export function forwardKey(stateKey: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', stateKey, 'mrtr-proxy', 'instance forwarding v1', 32));
}

function mac(key: Buffer, ts: number, path: string, body: Buffer): Buffer {
  const digest = createHash('sha256').update(body).digest('base64url');
  return createHmac('sha256', key).update(`${ts}\n${path}\n${digest}`).digest();
}

export function signForward(key: Buffer, now: number, path: string, body: Buffer): string {
  return `${now}.${mac(key, now, path, body).toString('base64url')}`;
}

export function verifyForward(keys: readonly Buffer[], header: string | undefined, now: number, path: string, body: Buffer): boolean {
  const m = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(header ?? '');
  if (!m) return false;
  const ts = Number(m[1]);
  if (Math.abs(now - ts) > MAX_SKEW_MS) return false;
  const given = Buffer.from(m[2]!, 'base64url');
  return keys.some((k) => timingSafeEqual(mac(k, ts, path, body), given));
}
