// The fast lane's way back to the official front. When the fast lane has already run a call but
// its outcome is not one it encodes itself (an error, an input_required round, an unusual result),
// it serves the same request through the official front with the outcome attached here; the front's
// handler then answers with that outcome instead of running the call a second time. The outcome is
// taken once, and only by the request it belongs to (it travels on that request: handler-context.ts).
import type { ServerContext } from '@modelcontextprotocol/server';
import type { JsonObject } from '../protocol/json.js';
import { carryForHandler, takeForHandler } from './handler-context.js';

export type CallOutcome = { ok: true; result: JsonObject } | { ok: false; error: unknown };

/** Runs `serve` (the official front for request `id` of `req`) with `outcome` waiting for that request's handler. */
export function withPrecomputed<T>(req: object, id: string | number, outcome: CallOutcome, serve: () => T): T {
  carryForHandler(req, id, outcome);
  return serve();
}

/** The outcome the fast lane already has for the request `ctx` serves, once; undefined when there is none. */
export function takePrecomputed(ctx: ServerContext): CallOutcome | undefined {
  return takeForHandler<CallOutcome>(ctx);
}
