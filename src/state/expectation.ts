// Whether an opened requestState is this retry's: the checks Sealer.open makes once the state is
// opened (kind, instance or upstream, principal, request). For a state the front already opened
// (to learn which instance holds its call) the bridge checks the claims instead of opening the
// state again. Pure; test/unit/state-expectation.test.ts holds it to Sealer.open's verdicts.
import { StateError, type StateClaims, type StateExpectation } from './seal.js';

/** The claims, if they are the retry's; throws the StateError Sealer.open would. */
export function checkExpectation(claims: StateClaims, expect: StateExpectation): StateClaims {
  // A task id is no requestState, whoever holds it.
  if (claims.k === 'task') throw new StateError('wrong_request');
  if (claims.k === 'replay') {
    if (claims.u !== expect.upstream) throw new StateError('wrong_request');
  } else if (claims.i !== expect.instance) throw new StateError('foreign_instance');
  if (claims.p !== expect.principal) throw new StateError('wrong_principal');
  if (claims.fp !== expect.fingerprint) throw new StateError('wrong_request');
  return claims;
}
