// A retry of a suspended round: what a held round's requestState seals, the checks a retry passes
// before it may consume a round, and what a client can do about a retry the proxy cannot resume.
//
// A held round seals the instance that holds the call (and, with --advertise-url, the URL other
// instances forward its retry to), the principal and request it is bound to, and the call's roots
// once the client gave them in a roots round (every later round). A retry's requestState must open
// for this instance, principal and request, and each answer must have the shape its legacy request
// needs (for the legacy server's revision); both checks throw the ProxyError the client sees.
//
// `data.action` next to `data.reason` says what the client can do: `resend` means the suspended call
// is gone for good, so send the original request again without requestState and inputResponses (the
// user may be asked again); `fix` means the round is still open, so correct inputResponses and retry
// with the same requestState. Reasons without an action (a reused, foreign-principal or misapplied
// state) are client bugs, not something to retry. Pure.
import { adaptAnswer, type AskedInput, partitionAnswers } from '../protocol/answers.js';
import { ProxyError } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/json.js';
import { fingerprint } from '../state/fingerprint.js';
import { holdClaims, type HoldClaims, type RetryClaims, type StateClaims } from '../state/claims.js';
import { checkExpectation, StateError, type Sealer, type StateExpectation } from '../state/seal.js';
import type { BoundCall } from './front-call.js';
import { MISS_MESSAGES, type MissResult } from './suspensions.js';

/** What a held round's requestState seals. */
export function heldClaims(owner: { instance: string; advertiseUrl?: string | undefined }, handle: string, round: number, call: BoundCall): HoldClaims {
  return holdClaims({
    handle,
    instance: owner.instance,
    round,
    principal: call.principal,
    fingerprint: fingerprint(call.identity),
    roots: call.roots,
    ownerUrl: owner.advertiseUrl,
  });
}

/** The error for a retry whose suspended interaction is gone; says how long a legacy server that gave up waited. */
export function goneError(m: Pick<MissResult, 'miss' | 'waitedMs'>): ProxyError {
  if (m.miss === 'legacy_gave_up' && m.waitedMs !== undefined) {
    const seconds = Math.round(m.waitedMs / 100) / 10;
    return new ProxyError(
      'interaction_gone',
      m.miss,
      `the legacy server gave up waiting for the answer after ${seconds} s (its own request timeout) and ended the call; send the request again without requestState and inputResponses`,
      { waitedSeconds: seconds },
    );
  }
  return new ProxyError('interaction_gone', m.miss, MISS_MESSAGES[m.miss]);
}

/** Opens and checks a retry's state: its token, or its claims when the front opened it already (then only checked). */
export async function openState(sealer: Sealer, state: string | StateClaims, expect: StateExpectation): Promise<RetryClaims> {
  try {
    return typeof state === 'string' ? await sealer.open(state, expect) : checkExpectation(state, expect);
  } catch (err) {
    if (err instanceof StateError) throw new ProxyError('state_invalid', err.reason, err.message);
    throw err;
  }
}

/** `input_invalid` for inputResponses that do not split into answers: one answer (`key`) at fault, or the whole object. */
export function answersRefused(split: { message: string; key?: string | undefined }): ProxyError {
  return split.key === undefined
    ? new ProxyError('input_invalid', 'input_responses_invalid', split.message)
    : new ProxyError('input_invalid', 'answer_invalid', split.message, { key: split.key });
}

/** Each answer adapted to the legacy request it answers, keyed as asked. */
export function shapeAnswers(asked: readonly AskedInput[], answers: Iterable<[string, unknown]>, version: string): Map<string, JsonObject> {
  const shaped = new Map<string, JsonObject>();
  for (const [key, answer] of answers) {
    const method = asked.find((a) => a.key === key)!.method;
    const adapted = adaptAnswer(method, answer as never, version);
    if (!adapted.ok) throw new ProxyError('input_invalid', 'answer_invalid', `inputResponses['${key}']: ${adapted.message}`, { key });
    shaped.set(key, adapted.result);
  }
  return shaped;
}

/**
 * A held round's retry, checked against what the round asked: the answers by key, the same shaped
 * for the legacy revision, and the keys left unanswered. Throws `input_invalid` (nothing consumed).
 */
export function checkRetryAnswers(
  asked: readonly AskedInput[],
  retry: { inputResponses?: unknown; droppedInputKeys?: readonly string[] },
  version: string,
): { answers: ReadonlyMap<string, unknown>; shaped: Map<string, JsonObject>; missing: string[] } {
  const split = partitionAnswers(asked, retry.inputResponses, retry.droppedInputKeys);
  if (!split.ok) throw answersRefused(split);
  return { answers: split.answers, shaped: shapeAnswers(asked, split.answers, version), missing: split.missing };
}
