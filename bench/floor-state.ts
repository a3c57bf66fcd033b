// The floor bridge's requestState: a compact JWE (dir + A256GCM) written with node:crypto alone, so
// that the floor pays for sealing what the proxy pays for it (the proxy seals with jose). Any JWE
// library opens these tokens with the same key; the unit test checks that jose does.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** What the floor's state carries: the suspended call, a fingerprint of its request, an expiry. */
export interface FloorClaims {
  /** Handle of the suspended legacy call. */
  s: string;
  /** Fingerprint of the tool name and arguments the state belongs to. */
  f: string;
  /** Expiry, ms since the epoch. */
  e: number;
}

/** base64url of `{"alg":"dir","enc":"A256GCM"}`: the protected header, also the AAD. */
const HEADER = Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256GCM' })).toString('base64url');
const AAD = Buffer.from(HEADER, 'ascii');
/** Tokens longer than this are refused unread (a floor state is ~170 characters). */
const MAX_TOKEN_CHARS = 4096;

export function sealState(key: Buffer, claims: FloorClaims): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(AAD);
  const body = Buffer.concat([cipher.update(JSON.stringify(claims), 'utf8'), cipher.final()]);
  return `${HEADER}..${iv.toString('base64url')}.${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
}

/** The claims of an authentic, well-formed token, or undefined (never says which check failed). */
export function openState(key: Buffer, token: unknown): FloorClaims | undefined {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS) return undefined;
  const parts = token.split('.');
  if (parts.length !== 5 || parts[0] !== HEADER || parts[1] !== '') return undefined;
  const iv = Buffer.from(parts[2]!, 'base64url');
  const tag = Buffer.from(parts[4]!, 'base64url');
  if (iv.length !== 12 || tag.length !== 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(AAD);
    decipher.setAuthTag(tag);
    const text = Buffer.concat([decipher.update(Buffer.from(parts[3]!, 'base64url')), decipher.final()]).toString('utf8');
    const claims = JSON.parse(text) as Partial<FloorClaims>;
    if (typeof claims.s !== 'string' || typeof claims.f !== 'string' || typeof claims.e !== 'number') return undefined;
    return { s: claims.s, f: claims.f, e: claims.e };
  } catch {
    return undefined;
  }
}
