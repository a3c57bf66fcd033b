// The checks a retry passes before it may consume a round: its requestState opens for this
// instance, principal and request, and each answer has the shape its legacy request needs (for the
// legacy server's revision). Both throw the ProxyError the client sees.
import { adaptAnswer, partitionAnswers } from '../protocol/answers.js';
import { ProxyError } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/json.js';
import { StateError, type Sealer, type StateClaims } from '../state/seal.js';
import type { PendingInput } from './interaction.js';
import { recoveryFor } from './recovery.js';

export async function openState(sealer: Sealer, token: string, expect: Parameters<Sealer['open']>[1]): Promise<StateClaims> {
  try {
    return await sealer.open(token, expect);
  } catch (err) {
    if (err instanceof StateError) throw new ProxyError('state_invalid', err.message, recoveryFor(err.reason));
    throw err;
  }
}

/** Each answer adapted to the legacy request it answers, keyed as asked. */
export function shapeAnswers(asked: readonly PendingInput[], answers: Iterable<[string, unknown]>, version: string): Map<string, JsonObject> {
  const shaped = new Map<string, JsonObject>();
  for (const [key, answer] of answers) {
    const method = asked.find((a) => a.key === key)!.method;
    const adapted = adaptAnswer(method, answer as never, version);
    if (!adapted.ok) throw new ProxyError('input_invalid', `inputResponses['${key}']: ${adapted.message}`, { key, action: 'fix' });
    shaped.set(key, adapted.result);
  }
  return shaped;
}

/**
 * A held round's retry, checked against what the round asked: the answers by key, the same shaped
 * for the legacy revision, and the keys left unanswered. Throws `input_invalid` (nothing consumed).
 */
export function checkRetryAnswers(
  asked: readonly PendingInput[],
  retry: { inputResponses?: unknown; droppedInputKeys?: readonly string[] },
  version: string,
): { answers: ReadonlyMap<string, unknown>; shaped: Map<string, JsonObject>; missing: string[] } {
  const split = partitionAnswers(asked, retry.inputResponses, retry.droppedInputKeys);
  if (!split.ok) throw new ProxyError('input_invalid', split.message, { ...(split.key ? { key: split.key } : {}), action: 'fix' });
  return { answers: split.answers, shaped: shapeAnswers(asked, split.answers, version), missing: split.missing };
}
