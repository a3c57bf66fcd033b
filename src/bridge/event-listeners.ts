// The interaction events (interaction-events.ts) turned into what the bridge's two ports expect:
// the upstream's telemetry (metrics, the front request's record) and the interaction observer (the
// audit, the live view, the shadow comparison). Each step is translated here once.
import type { InteractionObserver } from '../protocol/interaction-observer.js';
import type { UpstreamTelemetry } from '../telemetry/ports.js';
import type { InteractionEvent, InteractionListener } from './interaction-events.js';

export function telemetryListener(telemetry: UpstreamTelemetry): InteractionListener {
  return (e) => {
    if (e.type === 'round_asked')
      telemetry.inputRequired(
        e.record,
        e.method,
        e.asked.map((p) => p.method),
      );
    else if (e.type === 'ended') telemetry.interactionEnded(e.reason, e.rounds);
  };
}

export function observerListener(observer: InteractionObserver): InteractionListener {
  return (e: InteractionEvent) => {
    switch (e.type) {
      case 'started':
        return observer.onStart(e.start);
      case 'round_asked':
        // A roots round comes before the call is sent: the observer learns of it from the call's
        // start (`rootsRound`), and of its questions nothing it does not already know.
        if (e.rootsRound) return;
        return observer.onRound({ handle: e.handle, round: e.round, asked: e.asked.map((p) => ({ key: p.key, ...p.request })) });
      case 'answers_received':
        return observer.onAnswers({ handle: e.handle, round: e.round, answers: e.answers });
      case 'replayed':
        return observer.onReplay?.({ handle: e.handle, fromRecord: e.fromRecord, mismatched: e.mismatched });
      case 'ended': {
        const { handle, reason, why, result, error } = e;
        return observer.onEnd({
          handle,
          reason,
          ...(why === undefined ? {} : { why }),
          ...(result === undefined ? {} : { result }),
          ...(error === undefined ? {} : { error }),
        });
      }
    }
  };
}

/** One listener that tells each of `listeners` in turn. */
export function allOf(listeners: readonly InteractionListener[]): InteractionListener {
  return (e) => {
    for (const l of listeners) l(e);
  };
}
