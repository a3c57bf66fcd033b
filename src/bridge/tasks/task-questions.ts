// What a task does with a question its legacy call asks, in either kind of task: answered here (the
// operator's roots for a client that declared none), refused back to the legacy server (the request
// that created the task did not declare the capability the question needs: 2026-07-28 never asks a
// client for what it did not declare), or asked of the client as one of the task's inputRequests.
// Pure.
import { describeCapabilities, type FrontCapabilities, missingCapabilities } from '../../protocol/capabilities.js';
import { JSONRPC, LEGACY } from '../../protocol/errors.js';
import type { InputMethod } from '../../protocol/input-requests.js';
import type { JsonObject, Root } from '../../protocol/json.js';
import { declaresRoots, operatorRootsAnswer } from '../../protocol/roots.js';

export type QuestionTurn = { kind: 'answer'; result: JsonObject } | { kind: 'refuse'; code: number; message: string } | { kind: 'ask' };

export function screenQuestion(
  method: InputMethod,
  params: Record<string, unknown> | undefined,
  capabilities: FrontCapabilities,
  operatorRoots: readonly Root[],
): QuestionTurn {
  const local = operatorRootsAnswer(method, declaresRoots(capabilities), operatorRoots);
  if (local !== undefined) return { kind: 'answer', result: local as unknown as JsonObject };
  const missing = missingCapabilities(method, params, capabilities);
  if (missing === undefined) return { kind: 'ask' };
  return {
    kind: 'refuse',
    code: method === 'sampling/createMessage' ? LEGACY.SAMPLING_REJECTED : JSONRPC.INVALID_REQUEST,
    message: `the client did not declare ${describeCapabilities(missing)}`,
  };
}
