// Completing the candidate's `input_required` rounds from what the client answered the primary:
// each question the candidate asks is matched to a question the primary asked with the same
// method and shape (elicitation mode and requested schema's property names, types, formats, enum
// sizes, required), each primary answer used once, in the order it was asked. Pure.
import { describeAsk } from '../audit/record.js';
import { isJsonObject } from '../protocol/json.js';
import type { QuestionShape } from './compare.js';

/** One question the primary asked and what the client answered it (the bare 2026-07-28 response). */
export interface Exchange {
  method: string;
  params?: Record<string, unknown> | undefined;
  answer: unknown;
  /** May answer any number of questions (the client's roots, given in a roots round). */
  reusable?: boolean;
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

/** Equal shapes give equal digests (canonical JSON: sorted keys). */
export function shapeDigest(shape: QuestionShape): string {
  return canonical(shape);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isJsonObject(v))
    return `{${Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

export interface Matched {
  /** The candidate's input keys with the answers to send back. */
  responses: Record<string, unknown>;
  /** Questions no unused primary answer fits. */
  unmatched: Array<{ key: string; question: QuestionShape }>;
}

/**
 * Answers the candidate's `inputRequests` from `exchanges`; `used` (indexes into `exchanges`) is
 * updated so an answer serves one question across all rounds.
 */
export function matchAnswers(inputRequests: Record<string, unknown>, exchanges: readonly Exchange[], used: Set<number>): Matched {
  const digests = exchanges.map((e) => shapeDigest(questionShape(e.method, e.params)));
  const responses: Record<string, unknown> = {};
  const unmatched: Matched['unmatched'] = [];
  for (const [key, request] of Object.entries(inputRequests)) {
    const r = isJsonObject(request) ? request : {};
    const method = typeof r['method'] === 'string' ? r['method'] : '';
    const question = questionShape(method, isJsonObject(r['params']) ? r['params'] : undefined);
    const digest = shapeDigest(question);
    const i = exchanges.findIndex((e, n) => digests[n] === digest && (e.reusable === true || !used.has(n)));
    if (i < 0) {
      unmatched.push({ key, question });
      continue;
    }
    if (!exchanges[i]!.reusable) used.add(i);
    responses[key] = exchanges[i]!.answer;
  }
  return { responses, unmatched };
}

/** Questions the primary asked that the candidate never did (its answers went unused). */
export function unasked(exchanges: readonly Exchange[], used: ReadonlySet<number>): QuestionShape[] {
  return exchanges.flatMap((e, i) => (e.reusable || used.has(i) ? [] : [questionShape(e.method, e.params)]));
}
