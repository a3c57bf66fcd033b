// One `input_required` round of a 2026-07-28 server, as the legacy requests a 2025-era client
// answers: which questions go to the client (with their legacy params), which are answered for it
// with a refusal, and when the round cannot be served at all. Pure.
//
// A question whose capability the client did not declare at initialize (a server MUST NOT send
// one, so this is a server's bug or a mode the client lacks): an elicitation is answered
// `{action: 'decline'}`, the refusal the spec gives elicitation; sampling and roots have no
// negative answer in 2026-07-28, so the client's request ends with -32021, the error the spec
// names for a request that needs an undeclared capability, and nothing is retried.
import { isJsonObject, type JsonObject } from '../protocol/json.js';

/** More questions than this in one round is not a round a person answers: the server is wrong. */
export const MAX_QUESTIONS_PER_ROUND = 32;

export interface Question {
  /** The server's key for the question, the key of its answer in `inputResponses`. */
  key: string;
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  /** The 2026-07-28 params, as the server sent them. */
  params: JsonObject;
}

export type RoundPlan =
  | { kind: 'ask'; questions: Question[]; refused: JsonObject }
  | { kind: 'missing'; capabilities: JsonObject; message: string }
  | { kind: 'invalid'; message: string };

const METHODS: ReadonlySet<string> = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);

export function planRound(inputRequests: unknown, capabilities: JsonObject): RoundPlan {
  // A requestState-only round is legal: the client retries at once with no answers.
  if (inputRequests === undefined) return { kind: 'ask', questions: [], refused: {} };
  if (!isJsonObject(inputRequests)) return { kind: 'invalid', message: 'the server sent inputRequests that is not an object' };
  const entries = Object.entries(inputRequests);
  if (entries.length > MAX_QUESTIONS_PER_ROUND)
    return { kind: 'invalid', message: `the server asked ${entries.length} questions in one round (at most ${MAX_QUESTIONS_PER_ROUND})` };
  const questions: Question[] = [];
  const refused: JsonObject = {};
  for (const [key, entry] of entries) {
    const method = isJsonObject(entry) ? entry['method'] : undefined;
    if (typeof method !== 'string' || !METHODS.has(method))
      return { kind: 'invalid', message: 'the server sent an input request that is not elicitation, sampling or roots' };
    const params = isJsonObject((entry as JsonObject)['params']) ? ((entry as JsonObject)['params'] as JsonObject) : {};
    const question = { key, method: method as Question['method'], params };
    const needed = capabilityFor(question);
    if (declares(capabilities, needed)) questions.push(question);
    else if (method === 'elicitation/create') refused[key] = { action: 'decline' };
    else return { kind: 'missing', capabilities: needed, message: `the server asked ${method}, which the client did not declare at initialize` };
  }
  return { kind: 'ask', questions, refused };
}

/** The capability a question needs, in the `requiredCapabilities` form of -32021. */
export function capabilityFor(q: Question): JsonObject {
  switch (q.method) {
    case 'elicitation/create':
      return { elicitation: q.params['mode'] === 'url' ? { url: {} } : { form: {} } };
    case 'sampling/createMessage':
      return { sampling: q.params['tools'] !== undefined || q.params['toolChoice'] !== undefined ? { tools: {} } : {} };
    case 'roots/list':
      return { roots: {} };
  }
}

/** Whether `declared` covers `needed`; a bare `elicitation: {}` is form mode. */
function declares(declared: JsonObject, needed: JsonObject): boolean {
  const [name, member] = Object.entries(needed)[0] as [string, JsonObject];
  const has = declared[name];
  if (!isJsonObject(has)) return false;
  const sub = Object.keys(member)[0];
  if (sub === undefined) return true;
  if (name === 'elicitation' && sub === 'form' && has['form'] === undefined && has['url'] === undefined) return true;
  return isJsonObject(has[sub]);
}

/**
 * The legacy request for a question: 2025-11-25 URL elicitation needs an `elicitationId`, which
 * 2026-07-28 dropped, so the bridge names one; everything else keeps the server's params.
 */
export function legacyRequestOf(q: Question, elicitationId: string): { method: string; params: JsonObject } {
  if (q.method === 'elicitation/create' && q.params['mode'] === 'url') return { method: q.method, params: { ...q.params, elicitationId } };
  return { method: q.method, params: q.params };
}

/** A complete 2026-07-28 result as a legacy result: the same fields without `resultType`. */
export function legacyResultOf(result: JsonObject): JsonObject {
  const { resultType: _, ...rest } = result;
  return rest;
}
