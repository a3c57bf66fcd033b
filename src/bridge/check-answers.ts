// A retry's answers against the questions its round asked, shaped for the legacy revision: the
// client-facing `input_invalid` error when one is malformed (nothing is consumed then).
import { adaptAnswer, partitionAnswers, type AskedInput } from '../protocol/answers.js';
import { ProxyError } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/json.js';

export interface RetryAnswers {
  inputResponses?: unknown;
  droppedInputKeys?: readonly string[];
}

/** The shaped answers by key, and the keys the retry left unanswered. Throws ProxyError `input_invalid`. */
export function checkAnswers(asked: readonly AskedInput[], retry: RetryAnswers, legacyVersion: string): { shaped: Map<string, JsonObject>; missing: string[] } {
  const split = partitionAnswers(asked, retry.inputResponses, retry.droppedInputKeys);
  if (!split.ok) throw new ProxyError('input_invalid', split.message, { ...(split.key ? { key: split.key } : {}), action: 'fix' });
  const shaped = new Map<string, JsonObject>();
  for (const [key, answer] of split.answers) {
    const method = asked.find((a) => a.key === key)!.method;
    const adapted = adaptAnswer(method, answer, legacyVersion);
    if (!adapted.ok) throw new ProxyError('input_invalid', `inputResponses['${key}']: ${adapted.message}`, { key, action: 'fix' });
    shaped.set(key, adapted.result);
  }
  return { shaped, missing: split.missing };
}
