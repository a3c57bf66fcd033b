// The one home of requestState sealing. A state is a compact JWE (dir + A256GCM): the client can
// neither read nor forge it. Failure reasons are fixed strings that never echo the payload.
import { createHash, webcrypto } from 'node:crypto';
import type * as Jose from 'jose';

// jose is loaded at the first seal or open, not at start: a proxy that never holds an
// interaction (and its first server/discover) does not pay for loading it.
let josePromise: Promise<typeof Jose> | undefined;
const jose = (): Promise<typeof Jose> => (josePromise ??= import('jose'));
import type { Root } from '../protocol/json.js';
import { rootsFromClaim } from '../protocol/roots.js';

export const STATE_FORMAT_VERSION = 1;

/**
 * Longer tokens are refused unread. A replay record is capped by --max-state-bytes (at most 64 KiB
 * of sealed token), so this leaves room and still bounds the work an unauthenticated token costs.
 */
const MAX_TOKEN_CHARS = 96 * 1024;

/** What a requestState carries. Short claim names keep the token small across many rounds. */
export interface StateClaims {
  /** Handle of the suspended interaction. */
  h: string;
  /** The proxy instance that owns the suspension. */
  i: string;
  /** Round number this state answers. */
  r: number;
  /** Principal the state is bound to. */
  p: string;
  /** Fingerprint of the originating request. */
  fp: string;
  /** The call's roots, once the client gave them in a roots round: later rounds never ask again. */
  rt?: Root[];
  /**
   * `replay`: the call was let go and runs again on the retry, on any instance (the fields below
   * say how); `task`: not a requestState but a task id (tasks/task-table.ts), held by instance `i`;
   * absent for a call held by instance `i`.
   */
  k?: 'replay' | 'task';
  /** Replay and task: the upstream (route name) the call or task belongs to. */
  u?: string;
  /** Replay: the compressed record of questions and answers (state/replay-record.ts). */
  x?: string;
  /** Replay: the legacy revision the questions were asked in (answers are checked against it). */
  lv?: string;
  /** Replay: when the state expires, in ms (the single-use ledger keeps its entry until then). */
  e?: number;
  /** Replay: the call's id, the same in every state of one call: it links the call's runs in the audit. */
  c?: string;
  /** Hold and task: the owner's advertised base URL, where other instances forward the retry. */
  o?: string;
}

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
  open(token: unknown, expect: StateExpectation): Promise<StateClaims>;
  /** Opens a state without checking whom it belongs to: only to learn its owner. Throws StateError. */
  inspect(token: unknown): Promise<StateClaims>;
  /**
   * Seals a record the proxy keeps outside itself (a task in the state store): encrypted and
   * authenticated like a state, and marked so that neither can pass for the other.
   */
  sealRecord(record: Record<string, unknown>): Promise<string>;
  /** Opens a record sealed by sealRecord with any of the keys. Throws StateError. */
  openRecord(token: string): Promise<Record<string, unknown>>;
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
  // Each key is handed to jose as a CryptoKey imported once: given raw bytes, jose imports them
  // again for every seal and open.
  const imported = new Map<Uint8Array, Promise<webcrypto.CryptoKey>>();
  const cryptoKey = (raw: Uint8Array): Promise<webcrypto.CryptoKey> => {
    let key = imported.get(raw);
    if (key === undefined) {
      key = webcrypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
      imported.set(raw, key);
    }
    return key;
  };
  const byId = new Map(list.map((k) => [keyId(k), k] as const));
  const sealing = list[0]!;
  const sealingId = keyId(sealing);
  return {
    async seal(claims, expiresAtMs) {
      const { EncryptJWT } = await jose();
      return new EncryptJWT({ v: STATE_FORMAT_VERSION, ...claims })
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: sealingId })
        .setExpirationTime(Math.ceil(expiresAtMs / 1000))
        .encrypt(await cryptoKey(sealing));
    },
    async open(token, expect) {
      const claims = await this.inspect(token);
      // A task id is no requestState, whoever holds it.
      if (claims.k === 'task') throw new StateError('wrong_request');
      if (claims.k === 'replay') {
        if (claims.u !== expect.upstream) throw new StateError('wrong_request');
      } else if (claims.i !== expect.instance) throw new StateError('foreign_instance');
      if (claims.p !== expect.principal) throw new StateError('wrong_principal');
      if (claims.fp !== expect.fingerprint) throw new StateError('wrong_request');
      return claims;
    },
    async inspect(token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_CHARS) throw new StateError('malformed');
      const { jwtDecrypt, errors } = await jose();
      const kid = await keyIdOf(token, undefined);
      // A state without a key id predates rotation support: only the sealing key can have made it.
      const key = kid === undefined ? sealing : typeof kid === 'string' ? byId.get(kid) : undefined;
      if (key === undefined) throw new StateError('unauthentic', UNKNOWN_KEY_MESSAGE);
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtDecrypt(token, await cryptoKey(key), {
          currentDate: new Date(now()),
          keyManagementAlgorithms: ['dir'],
          contentEncryptionAlgorithms: ['A256GCM'],
          requiredClaims: ['exp'],
        }));
      } catch (err) {
        const reason = failureOf(err, errors);
        throw new StateError(reason, reason === 'unauthentic' && kid !== undefined ? ALTERED_MESSAGE : undefined);
      }
      if (payload['v'] !== STATE_FORMAT_VERSION) throw new StateError('version');
      return claimsOf(payload);
    },
    async sealRecord(record) {
      const { CompactEncrypt } = await jose();
      return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(record)))
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: sealingId, cty: RECORD_TYPE })
        .encrypt(await cryptoKey(sealing));
    },
    async openRecord(token) {
      const { compactDecrypt } = await jose();
      const kid = await keyIdOf(token, RECORD_TYPE);
      const key = typeof kid === 'string' ? byId.get(kid) : undefined;
      if (key === undefined) throw new StateError('unauthentic', UNKNOWN_KEY_MESSAGE);
      let plaintext: Uint8Array;
      try {
        ({ plaintext } = await compactDecrypt(token, await cryptoKey(key), { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] }));
      } catch {
        throw new StateError('unauthentic', ALTERED_MESSAGE);
      }
      try {
        const record: unknown = JSON.parse(new TextDecoder().decode(plaintext));
        if (typeof record !== 'object' || record === null || Array.isArray(record)) throw new Error('not an object');
        return record as Record<string, unknown>;
      } catch {
        throw new StateError('malformed');
      }
    },
  };
}

/** The key id in a token's header, once the header says it is what is expected (`cty`: a record's type, none for a state). */
async function keyIdOf(token: string, cty: string | undefined): Promise<unknown> {
  const { decodeProtectedHeader } = await jose();
  let header: Jose.ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw new StateError('malformed');
  }
  if (header.cty !== cty) throw new StateError('malformed');
  return header.kid;
}

function failureOf(err: unknown, errors: typeof Jose.errors): StateFailure {
  if (err instanceof errors.JWTExpired) return 'expired';
  if (err instanceof errors.JWEDecryptionFailed) return 'unauthentic';
  return 'malformed';
}

function claimsOf(p: Record<string, unknown>): StateClaims {
  const { h, i, r, fp } = p;
  const principal = p['p'];
  if (typeof h !== 'string' || typeof i !== 'string' || typeof r !== 'number' || typeof principal !== 'string' || typeof fp !== 'string') {
    throw new StateError('malformed');
  }
  const base: StateClaims = { h, i, r, p: principal, fp };
  let claims = base;
  if (p['rt'] !== undefined) {
    const rt = rootsFromClaim(p['rt']);
    if (rt === undefined) throw new StateError('malformed');
    claims = { ...base, rt };
  }
  if (p['k'] === undefined) {
    if (p['o'] === undefined) return claims;
    if (typeof p['o'] !== 'string') throw new StateError('malformed');
    return { ...claims, o: p['o'] };
  }
  const { k, u, x, lv, e, c } = p;
  if (k === 'task') {
    if (typeof u !== 'string' || (p['o'] !== undefined && typeof p['o'] !== 'string')) throw new StateError('malformed');
    return { ...claims, k, u, ...(p['o'] === undefined ? {} : { o: p['o'] as string }) };
  }
  if (k !== 'replay' || typeof u !== 'string' || typeof x !== 'string' || typeof lv !== 'string' || typeof e !== 'number') throw new StateError('malformed');
  if (c !== undefined && typeof c !== 'string') throw new StateError('malformed');
  return { ...claims, k, u, x, lv, e, ...(c === undefined ? {} : { c }) };
}
