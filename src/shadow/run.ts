// One shadow comparison: the request goes to the candidate, its `input_required` rounds are
// completed from the client's answers to the primary, and the final outcome is compared with the
// primary's. A question no primary answer fits ends the exchange: that is the difference.
import type { PathStep } from '../config/shadow.js';
import { isJsonObject, type JsonObject } from '../protocol/json.js';
import { matchAnswers, unasked, type Exchange } from './answers.js';
import { isInputRequired, type CandidateClient } from './candidate.js';
import { compareOutcomes, MAX_DIFFERENCES, type Difference, type SideOutcome } from './compare.js';

/** What the primary saw of one request, for the candidate to be asked the same. */
export interface ShadowRequest {
  method: string;
  /** The target params only (name and arguments, uri, list params without a cursor). */
  params: JsonObject;
  /** The capabilities the client declared to the primary; the candidate gets the same. */
  capabilities: JsonObject;
  /** The primary's questions and the client's answers, in the order asked. */
  exchanges: Exchange[];
  primary: SideOutcome;
}

export type ComparisonOutcome = 'match' | 'differ' | 'candidate_error';

export interface Comparison {
  outcome: ComparisonOutcome;
  differences: Difference[];
  /** Differences beyond MAX_DIFFERENCES, counted only. */
  truncated: number;
  /** input_required rounds the candidate took. */
  rounds: number;
  /** Why the candidate failed (candidate_error). */
  error?: string;
  /**
   * When the primary's call had the proxy's roots round: `answered` when the candidate asked for
   * the roots too (and got that round's answer), `unused` when it never did.
   */
  rootsRound?: 'answered' | 'unused';
}

export const MAX_CANDIDATE_ROUNDS = 8;

export async function compareWithCandidate(
  req: ShadowRequest,
  candidate: Pick<CandidateClient, 'request'>,
  ignore: readonly PathStep[][],
  signal: AbortSignal,
): Promise<Comparison> {
  const used = new Set<number>();
  let params = req.params;
  let rounds = 0;
  try {
    for (;;) {
      const out = await candidate.request(req.method, params, req.capabilities, signal);
      if (!isInputRequired(out)) {
        const missing = unasked(req.exchanges, used).map((question): Difference => ({ path: 'inputRequests', kind: 'missing', question }));
        return withRootsRound(verdict([...missing, ...compareOutcomes(req.method, req.primary, out, ignore)], rounds), req, used);
      }
      if (++rounds > MAX_CANDIDATE_ROUNDS) return withRootsRound(failed(`more than ${MAX_CANDIDATE_ROUNDS} input_required rounds`, rounds), req, used);
      const requests = isJsonObject(out.result.inputRequests) ? out.result.inputRequests : {};
      const matched = matchAnswers(requests, req.exchanges, used);
      if (matched.unmatched.length > 0)
        return withRootsRound(
          verdict(
            matched.unmatched.map(({ question }): Difference => ({ path: 'inputRequests', kind: 'extra', question })),
            rounds,
          ),
          req,
          used,
        );
      const state = out.result.requestState;
      params = { ...req.params, inputResponses: matched.responses, ...(typeof state === 'string' ? { requestState: state } : {}) };
    }
  } catch (err) {
    return withRootsRound(failed(signal.aborted ? 'timed out' : (err as Error).message, rounds), req, used);
  }
}

/**
 * The primary's rounds as they compare with the candidate's: the proxy's roots round is the
 * counterpart of a candidate round that asks for the roots, so it counts only then.
 */
export function primaryRoundsOf(rounds: number, c: Pick<Comparison, 'rootsRound'>): number {
  return rounds + (c.rootsRound === 'answered' ? 1 : 0);
}

/**
 * Whether the candidate used the primary's roots round. The proxy asks it before every call of a
 * client that declares roots to a server that reads them at initialize, whether the tool reads
 * them or not, so a candidate that never asks for the roots is not missing a question.
 */
function withRootsRound(c: Comparison, req: ShadowRequest, used: ReadonlySet<number>): Comparison {
  const at = req.exchanges.findIndex((e) => e.rootsRound === true);
  return at < 0 ? c : { ...c, rootsRound: used.has(at) ? 'answered' : 'unused' };
}

function verdict(all: Difference[], rounds: number): Comparison {
  return {
    outcome: all.length === 0 ? 'match' : 'differ',
    differences: all.slice(0, MAX_DIFFERENCES),
    truncated: Math.max(0, all.length - MAX_DIFFERENCES),
    rounds,
  };
}

function failed(error: string, rounds: number): Comparison {
  return { outcome: 'candidate_error', differences: [], truncated: 0, rounds, error };
}
