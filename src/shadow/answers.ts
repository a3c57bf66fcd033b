// Completing the candidate's `input_required` rounds from what the client answered the primary:
// each question the candidate asks is matched to a question the primary asked with the same
// method and shape (the replay matching's digest: the requested schema without its wording, the
// URL without query, sampling parameters without the messages' text), each primary answer used
// once, in the order it was asked. Pure.
import { describeAsk } from '../audit/record.js';
import type { InputMethod } from '../protocol/input-requests.js';
import { isJsonObject } from '../protocol/json.js';
import { shapeDigest as replayDigest } from '../protocol/replay-match.js';
import type { QuestionShape } from './compare.js';

/** One question the primary asked and what the client answered it (the bare 2026-07-28 response). */
export interface Exchange {
  method: string;
  params?: Record<string, unknown> | undefined;
  /** The question's shape digest, when only that is known (a replayed call's record). */
  digest?: string;
  answer: unknown;
  /** May answer any number of questions (the client's roots, given in a roots round). */
  reusable?: boolean;
  /** The proxy's roots round before the call (docs/roots.md), not a question of the legacy call itself. */
  rootsRound?: boolean;
}

/** A question as a shape: what two servers must agree on for one answer to fit both. */
export function questionShape(method: string, params: Record<string, unknown> | undefined): QuestionShape {
  const ask = describeAsk(method, params);
  return {
    method,
    ...(ask.elicitationMode === undefined ? {} : { elicitationMode: ask.elicitationMode }),
    ...(ask.schema === undefined ? {} : { schema: ask.schema }),
  };
}

/** Questions one answer fits have equal digests (the replay matching's, protocol/replay-match.ts). */
export function shapeDigest(method: string, params: Record<string, unknown> | undefined): string {
  return replayDigest(method as InputMethod, params);
}

export interface Matched {
  /** The candidate's input keys with the answers to send back. */
  responses: Record<string, unknown>;
  /** Questions no unused primary answer fits. */
  unmatched: Array<{ key: string; question: QuestionShape }>;
}

/**
 * Answers the candidate's `inputRequests` from `exchanges`; `used` (indexes into `exchanges`) is
 * updated so an answer serves one question across all rounds (a reusable one, any number).
 */
export function matchAnswers(inputRequests: Record<string, unknown>, exchanges: readonly Exchange[], used: Set<number>): Matched {
  const digests = exchanges.map((e) => e.digest ?? shapeDigest(e.method, e.params));
  const responses: Record<string, unknown> = {};
  const unmatched: Matched['unmatched'] = [];
  for (const [key, request] of Object.entries(inputRequests)) {
    const r = isJsonObject(request) ? request : {};
    const method = typeof r['method'] === 'string' ? r['method'] : '';
    const params = isJsonObject(r['params']) ? r['params'] : undefined;
    const question = questionShape(method, params);
    const digest = shapeDigest(method, params);
    // A question the primary asked is paired before the session's standing roots answer, so that
    // a roots/list both servers asked is not reported as never asked by the candidate.
    const asked = exchanges.findIndex((e, n) => digests[n] === digest && e.reusable !== true && !used.has(n));
    const i = asked >= 0 ? asked : exchanges.findIndex((e, n) => digests[n] === digest && e.reusable === true);
    if (i < 0) {
      unmatched.push({ key, question });
      continue;
    }
    // A reusable answer stays available; marking it used tells that the candidate asked for it.
    used.add(i);
    responses[key] = exchanges[i]!.answer;
  }
  return { responses, unmatched };
}

/** Questions the primary asked that the candidate never did (its answers went unused). */
export function unasked(exchanges: readonly Exchange[], used: ReadonlySet<number>): QuestionShape[] {
  return exchanges.flatMap((e, i) => (e.reusable || used.has(i) ? [] : [e.params ? questionShape(e.method, e.params) : { method: e.method }]));
}
