// The one home of requestState sealing. A state is a compact JWE (dir + A256GCM): the client can
// neither read nor forge it. Failure reasons are fixed strings that never echo the payload.
import { EncryptJWT, jwtDecrypt, errors as joseErrors } from 'jose';
import type { Root } from '../protocol/json.js';
import { rootsFromClaim } from '../protocol/roots.js';

export const STATE_FORMAT_VERSION = 1;

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
}

export type StateFailure = 'malformed' | 'unauthentic' | 'expired' | 'version' | 'foreign_instance' | 'wrong_request' | 'wrong_principal';

const MESSAGES: Record<StateFailure, string> = {
  malformed: 'requestState is malformed',
  unauthentic: 'requestState failed authentication (tampered with, or sealed with another key)',
  expired: 'requestState has expired',
  version: 'requestState has an unsupported format version',
  foreign_instance:
    'requestState refers to an interaction that no longer exists: it was suspended by another proxy instance or before this proxy restarted; send the request again without requestState and inputResponses',
  wrong_request: 'requestState belongs to a different request (method, name, URI or arguments differ)',
  wrong_principal: 'requestState belongs to a different principal',
};

export class StateError extends Error {
  override readonly name = 'StateError';
  constructor(readonly reason: StateFailure) {
    super(MESSAGES[reason]);
  }
}

export interface Sealer {
  seal(claims: StateClaims, expiresAtMs: number): Promise<string>;
  /** Opens and checks a state against what the retry is. Throws StateError. */
  open(token: unknown, expect: { instance: string; principal: string; fingerprint: string }): Promise<StateClaims>;
}

export function createSealer(key: Uint8Array, now: () => number = Date.now): Sealer {
  if (key.length !== 32) throw new RangeError('requestState key must be 32 bytes');
  return {
    async seal(claims, expiresAtMs) {
      return new EncryptJWT({ v: STATE_FORMAT_VERSION, ...claims })
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .setExpirationTime(Math.ceil(expiresAtMs / 1000))
        .encrypt(key);
    },
    async open(token, expect) {
      if (typeof token !== 'string' || token.length === 0 || token.length > 8192) throw new StateError('malformed');
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtDecrypt(token, key, {
          currentDate: new Date(now()),
          keyManagementAlgorithms: ['dir'],
          contentEncryptionAlgorithms: ['A256GCM'],
          requiredClaims: ['exp'],
        }));
      } catch (err) {
        throw new StateError(failureOf(err));
      }
      if (payload['v'] !== STATE_FORMAT_VERSION) throw new StateError('version');
      const claims = claimsOf(payload);
      if (claims.i !== expect.instance) throw new StateError('foreign_instance');
      if (claims.p !== expect.principal) throw new StateError('wrong_principal');
      if (claims.fp !== expect.fingerprint) throw new StateError('wrong_request');
      return claims;
    },
  };
}

function failureOf(err: unknown): StateFailure {
  if (err instanceof joseErrors.JWTExpired) return 'expired';
  if (err instanceof joseErrors.JWEDecryptionFailed) return 'unauthentic';
  return 'malformed';
}

function claimsOf(p: Record<string, unknown>): StateClaims {
  const { h, i, r, fp } = p;
  const principal = p['p'];
  if (typeof h !== 'string' || typeof i !== 'string' || typeof r !== 'number' || typeof principal !== 'string' || typeof fp !== 'string') {
    throw new StateError('malformed');
  }
  if (p['rt'] === undefined) return { h, i, r, p: principal, fp };
  const rt = rootsFromClaim(p['rt']);
  if (rt === undefined) throw new StateError('malformed');
  return { h, i, r, p: principal, fp, rt };
}
