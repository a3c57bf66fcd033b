// The round that asks a client for its roots before its call is sent, for a legacy server that
// reads roots at initialize (see protocol/roots.ts). It is suspended like an interaction, so its
// requestState is good for one retry and expires with the interaction TTL, but it holds no legacy
// session: nothing has been sent upstream yet.
import { partitionAnswers } from '../protocol/answers.js';
import { ProxyError } from '../protocol/errors.js';
import type { JsonObject, Root } from '../protocol/json.js';
import { type CallRootsFacts, callRootsAnswer, normalizeRoots, ROOTS_ROUND_KEY, rootsProblem } from '../protocol/roots.js';
import type { Interaction, PendingInput } from './interaction.js';
import { answersRefused } from './retry.js';

export class RootsRound {
  private rounds = 0;

  constructor(readonly handle: string) {}

  get round(): number {
    return this.rounds;
  }

  nextRound(): number {
    return ++this.rounds;
  }

  /** Nothing to give back: the call has not started. */
  end(_reason: string): void {}
}

/** The `input_required` result of a roots round. */
export function rootsRoundResult(requestState: string): JsonObject {
  return { resultType: 'input_required', inputRequests: { [ROOTS_ROUND_KEY]: { method: 'roots/list' } }, requestState };
}

/**
 * The client's roots from a retry of the roots round, or `undefined` when the retry does not
 * answer it (the round is asked again). Throws `input_invalid` for an answer that cannot be used,
 * before the round is consumed.
 */
export function readRootsAnswer(inputResponses: unknown, dropped: readonly string[] | undefined): Root[] | undefined {
  const split = partitionAnswers([{ key: ROOTS_ROUND_KEY, method: 'roots/list' }], inputResponses, dropped);
  if (!split.ok) throw answersRefused(split);
  const answer = split.answers.get(ROOTS_ROUND_KEY);
  if (answer === undefined) return undefined;
  const roots = normalizeRoots(answer['roots'] as Array<{ uri: string; name?: string }>);
  const problem = rootsProblem(roots);
  if (problem) throw new ProxyError('input_invalid', 'answer_invalid', `inputResponses['${ROOTS_ROUND_KEY}']: ${problem}`, { key: ROOTS_ROUND_KEY });
  return roots;
}

/**
 * Answers a round's roots/list requests without the client where it can (callRootsAnswer: the
 * roots the client gave earlier in the call, or the operator's) and returns the inputs still to
 * ask the client for.
 */
export function answerRootsLocally(interaction: Interaction, pending: PendingInput[], facts: CallRootsFacts): PendingInput[] {
  const rest: PendingInput[] = [];
  for (const p of pending) {
    const local = callRootsAnswer(p.method, facts);
    if (local) interaction.answer(p.key, local);
    else rest.push(p);
  }
  return rest;
}
