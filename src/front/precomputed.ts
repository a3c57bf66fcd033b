// The fast lane's way back to the official front. When the fast lane has already run a call but
// its outcome is not one it encodes itself (an error, an input_required round, an unusual result),
// it serves the same request through the official front with the outcome attached here; the front's
// handler then answers with that outcome instead of running the call a second time. The outcome is
// taken once, and only by the request it belongs to.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { JsonObject } from '../protocol/json.js';

export type CallOutcome = { ok: true; result: JsonObject } | { ok: false; error: unknown };

interface Precomputed {
  id: string | number;
  outcome: CallOutcome | undefined;
}

const store = new AsyncLocalStorage<Precomputed>();

/** Runs `serve` (the official front for request `id`) with `outcome` waiting for that request's handler. */
export function withPrecomputed<T>(id: string | number, outcome: CallOutcome, serve: () => T): T {
  return store.run({ id, outcome }, serve);
}

/** The outcome the fast lane already has for request `id`, once; undefined when there is none. */
export function takePrecomputed(id: string | number): CallOutcome | undefined {
  const held = store.getStore();
  if (held === undefined || held.id !== id) return undefined;
  const { outcome } = held;
  held.outcome = undefined;
  return outcome;
}
