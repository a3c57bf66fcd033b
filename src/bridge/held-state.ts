// What a held round's requestState seals. Pure. The instance that holds the call (and, with
// --advertise-url, the URL other instances forward its retry to), the principal and request it is
// bound to, and the call's roots once the client gave them in a roots round (every later round).
import { fingerprint } from '../state/fingerprint.js';
import type { StateClaims } from '../state/seal.js';
import type { BoundCall } from './front-call.js';

export function heldClaims(owner: { instance: string; advertiseUrl?: string | undefined }, handle: string, round: number, call: BoundCall): StateClaims {
  return {
    h: handle,
    i: owner.instance,
    r: round,
    p: call.principal,
    fp: fingerprint(call.identity),
    ...(owner.advertiseUrl === undefined ? {} : { o: owner.advertiseUrl }),
    ...(call.roots && { rt: [...call.roots] }),
  };
}
