// Opening a retry's requestState: a state that fails to open or does not belong to this retry
// becomes the client-facing `state_invalid` error, with what the client can do about it.
import { ProxyError } from '../protocol/errors.js';
import { StateError, type Sealer, type StateClaims, type StateExpectation } from '../state/seal.js';
import { recoveryFor } from './recovery.js';

export async function openState(sealer: Sealer, token: string, expect: StateExpectation): Promise<StateClaims> {
  try {
    return await sealer.open(token, expect);
  } catch (err) {
    if (err instanceof StateError) throw new ProxyError('state_invalid', err.message, recoveryFor(err.reason));
    throw err;
  }
}
