// The one home of requestState sealing. A state is a compact JWE (dir + A256GCM): the client can
// neither read nor forge it. Failure reasons are fixed strings that never echo the payload. Sealing
// and opening are synchronous (node:crypto): the promises are the interface's, not the work's.
import { createHash, createSecretKey, type KeyObject } from 'node:crypto';
import { type RetryClaims, readClaims, type StateClaims, wireClaims } from './claims.js';
export type { RetryClaims, StateClaims } from './claims.js';
import { type CompactJwe, jsonObject, openCompact, readCompact, type SealingHeader, sealCompact, sealingHeader } from './compact-jwe.js';

export const STATE_FORMAT_VERSION = 1;

/**
 * Longer tokens are refused unread. A replay record is capped by --max-state-bytes (at most 64 KiB
 * of sealed token), so this leaves room and still bounds the work an unauthenticated token costs.
 */
const MAX_TOKEN_CHARS = 96 * 1024;

export type StateFailure = 'malformed' | 'unauthentic' | 'expired' | 'version' | 'foreign_instance' | 'wrong_request' | 'wrong_principal';

const MESSAGES: Record<StateFailure, string> = {
  malformed: 'requestState is malformed',
  unauthentic:
    'requestState failed authentication: it was altered, or sealed with a key this proxy does not hold (every proxy instance needs the same --state-key; after a key rotation, keep the old key listed after the new one until its states expire)',
  expired: 'requestState has expired',
  version: 'requestState has an unsupported format version',
  foreign_instance:
    'requestState refers to an interaction that no longer exists: it was suspended by another proxy instance or before this proxy restarted; send the request again without requestState and inputResponses',
  wrong_request: 'requestState belongs to a different request (method, name, URI or arguments differ)',
  wrong_principal: 'requestState belongs to a different principal',
};

/**
 * `unauthentic` for a key id this proxy does not know: most often a second instance that was given
 * no key (each generated its own) or another one, else a key dropped too early after a rotation.
 */
const UNKNOWN_KEY_MESSAGE =
  'requestState failed authentication: it was sealed with a key this proxy does not hold. Every proxy instance that may receive the retry needs the same --state-key (or MRTR_STATE_KEY); after a key rotation, keep the old key listed after the new one until its states expire';

/** `unauthentic` for a key this proxy holds: the token was changed after it was sealed. */
const ALTERED_MESSAGE = 'requestState failed authentication: it was altered after it was sealed';

export class StateError extends Error {
  override readonly name = 'StateError';
  constructor(
    readonly reason: StateFailure,
    message: string = MESSAGES[reason],
  ) {
    super(message);
  }
}

/** What a retry is: a held state must come back to its instance, a replayed one to its upstream. */
export interface StateExpectation {
  instance: string;
  upstream?: string;
  principal: string;
  fingerprint: string;
}

export interface Sealer {
  seal(claims: StateClaims, expiresAtMs: number): Promise<string>;
  /** Opens and checks a state against what the retry is. Throws StateError. */
  open(token: unknown, expect: StateExpectation): Promise<RetryClaims>;
  /** Opens a state without checking whom it belongs to: only to learn its owner. Throws StateError. */
  inspect(token: unknown): Promise<StateClaims>;
  /**
   * Seals a record the proxy keeps outside itself (a task in the state store): encrypted and
   * authenticated like a state, and marked so that neither can pass for the other.
   */
  sealRecord(record: Record<string, unknown>): Promise<string>;
  /** Opens a record sealed by sealRecord with any of the keys. Throws StateError. Its caller bounds its size. */
  openRecord(token: string): Promise<Record<string, unknown>>;
  /**
   * Whether a requestState (or task id) names one of this proxy's keys, read from its header alone
   * (nothing decrypted): who issued it, not whether it is authentic, which `open` decides.
   */
  sealedHere(token: unknown): boolean;
}

/** The JWE content type of a record (sealRecord); states have none. */
const RECORD_TYPE = 'mrtr-record';

/** A key's public name in the JWE header: a digest that says which key, never anything of it. */
export function keyId(key: Uint8Array): string {
  return createHash('sha256').update('mrtr-proxy requestState key id\0').update(key).digest('base64url').slice(0, 11);
}

/**
 * `keys`: the first seals, every one opens (rotation: put the new key first and keep the old one
 * until the states it sealed have expired). The key id in each state's header picks the key.
 */
export function createSealer(keys: Uint8Array | readonly Uint8Array[], now: () => number = Date.now): Sealer {
  const list = keys instanceof Uint8Array ? [keys] : [...keys];
  if (list.length === 0) throw new RangeError('requestState needs at least one key');
  for (const k of list) if (k.length !== 32) throw new RangeError('requestState key must be 32 bytes');
  const byId = new Map(list.map((k) => [keyId(k), createSecretKey(k)] as const));
  const sealingId = keyId(list[0]!);
  const sealing = byId.get(sealingId)!;
  const stateHeader: SealingHeader = sealingHeader({ kid: sealingId });
  const recordHeader: SealingHeader = sealingHeader({ kid: sealingId, cty: RECORD_TYPE });

  /**
   * The plaintext of a token read whole, decrypted with the key its header names; `unnamed`: the key
   * of a token that names none (a state sealed before rotation support: only the sealing key can
   * have made it).
   */
  const decrypt = (jwe: CompactJwe, unnamed: KeyObject | undefined): Uint8Array => {
    const kid = jwe.header['kid'];
    const key = kid === undefined ? unnamed : typeof kid === 'string' ? byId.get(kid) : undefined;
    if (key === undefined) throw new StateError('unauthentic', UNKNOWN_KEY_MESSAGE);
    const plaintext = openCompact(key, jwe);
    if (plaintext === 'unauthentic') throw new StateError('unauthentic', kid === undefined ? undefined : ALTERED_MESSAGE);
    if (plaintext === 'malformed') throw new StateError('malformed');
    return plaintext;
  };

  const inspect = (token: unknown): StateClaims => {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_CHARS) throw new StateError('malformed');
    const jwe = readCompact(token);
    if (jwe === undefined || jwe.header['cty'] !== undefined) throw new StateError('malformed');
    const payload = jsonObject(decrypt(jwe, sealing));
    const exp = payload?.['exp'];
    if (payload === undefined || typeof exp !== 'number') throw new StateError('malformed');
    // A JWT's `exp` is in whole seconds, and the state is expired from that second on.
    if (exp <= Math.floor(now() / 1000)) throw new StateError('expired');
    if (payload['v'] !== STATE_FORMAT_VERSION) throw new StateError('version');
    const claims = readClaims(payload);
    if (claims === undefined) throw new StateError('malformed');
    return claims;
  };

  return {
    async seal(claims, expiresAtMs) {
      const exp = Math.ceil(expiresAtMs / 1000);
      if (!Number.isSafeInteger(exp)) throw new RangeError('requestState expiry must be a time in ms');
      return sealCompact(sealing, stateHeader, JSON.stringify({ v: STATE_FORMAT_VERSION, ...wireClaims(claims), exp }));
    },
    async open(token, expect) {
      return checkExpectation(inspect(token), expect);
    },
    async inspect(token) {
      return inspect(token);
    },
    async sealRecord(record) {
      return sealCompact(sealing, recordHeader, JSON.stringify(record));
    },
    sealedHere(token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_CHARS) return false;
      const kid = readCompact(token)?.header['kid'];
      return typeof kid === 'string' && byId.has(kid);
    },
    async openRecord(token) {
      const jwe = readCompact(token);
      if (jwe === undefined || jwe.header['cty'] !== RECORD_TYPE) throw new StateError('malformed');
      // A record always names its key.
      const record = jsonObject(decrypt(jwe, undefined));
      if (record === undefined) throw new StateError('malformed');
      return record;
    },
  };
}

/**
 * The claims, if they are the retry's (`expect`): the kind, instance or upstream, principal and
 * request; throws the StateError that says which is not. Sealer.open applies it to what it opened,
 * and the bridge to a state the front already opened (to learn which instance holds its call).
 */
export function checkExpectation(claims: StateClaims, expect: StateExpectation): RetryClaims {
  switch (claims.k) {
    // A task id is no requestState, whoever holds it.
    case 'task':
      throw new StateError('wrong_request');
    case 'replay':
      if (claims.u !== expect.upstream) throw new StateError('wrong_request');
      break;
    case 'hold':
      if (claims.i !== expect.instance) throw new StateError('foreign_instance');
      break;
  }
  if (claims.p !== expect.principal) throw new StateError('wrong_principal');
  if (claims.fp !== expect.fingerprint) throw new StateError('wrong_request');
  return claims;
}
