// What the observers hear when an interactive call is sent to the legacy server: the call, the
// client's capabilities and roots, and for a replayed run its link to the call and the record it
// is answered from. Pure.
import type { BoundCall } from './front-call.js';
import type { InteractionObserver } from './ports.js';
import type { Rerun } from './replay-retry.js';

export function startEvent(handle: string, call: BoundCall, replay: Rerun | undefined): Parameters<InteractionObserver['onStart']>[0] {
  const { method, params, capabilities, roots } = call;
  const replayed = replay && {
    replay: { call: replay.callId, run: replay.round, answers: replay.answers },
    recorded: replay.record,
    roundsBefore: replay.round - 1,
  };
  return { handle, method, params, mode: replay ? 'replay' : 'hold', capabilities, roots, ...replayed };
}
