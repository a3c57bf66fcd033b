// What a client can do about a retry the proxy cannot resume, as `data.action` next to `data.reason`.
// Pure. `resend` means: the suspended call is gone for good, so send the original request again
// without requestState and inputResponses (the user may be asked again). `fix` means: the round is
// still open, correct inputResponses and retry with the same requestState. Reasons without an
// action (a reused, foreign-principal or misapplied state) are client bugs, not something to retry.
export type RecoveryAction = 'resend' | 'fix';

const RESEND = new Set(['expired', 'foreign_instance', 'unknown', 'lost', 'cancelled', 'completed']);

export function recoveryFor(reason: string): { reason: string; action?: RecoveryAction } {
  return RESEND.has(reason) ? { reason, action: 'resend' } : { reason };
}
