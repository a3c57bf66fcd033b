// What a client can do about a retry the proxy cannot resume, as `data.action` next to `data.reason`.
// Pure. `resend` means: the suspended call is gone for good, so send the original request again
// without requestState and inputResponses (the user may be asked again). `fix` means: the round is
// still open, correct inputResponses and retry with the same requestState. Reasons without an
// action (a reused, foreign-principal or misapplied state) are client bugs, not something to retry.
import { ProxyError } from '../protocol/errors.js';
import { MISS_MESSAGES, type MissResult } from './suspensions.js';

export type RecoveryAction = 'resend' | 'fix';

const RESEND = new Set(['expired', 'foreign_instance', 'unknown', 'lost', 'cancelled', 'completed', 'legacy_gave_up']);

export function recoveryFor(reason: string): { reason: string; action?: RecoveryAction } {
  return RESEND.has(reason) ? { reason, action: 'resend' } : { reason };
}

/** The error for a retry whose suspended interaction is gone; says how long a legacy server that gave up waited. */
export function goneError(m: Pick<MissResult, 'miss' | 'waitedMs'>): ProxyError {
  if (m.miss === 'legacy_gave_up' && m.waitedMs !== undefined) {
    const seconds = Math.round(m.waitedMs / 100) / 10;
    return new ProxyError(
      'interaction_gone',
      `the legacy server gave up waiting for the answer after ${seconds} s (its own request timeout) and ended the call; send the request again without requestState and inputResponses`,
      { ...recoveryFor(m.miss), waitedSeconds: seconds },
    );
  }
  return new ProxyError('interaction_gone', MISS_MESSAGES[m.miss], recoveryFor(m.miss));
}
