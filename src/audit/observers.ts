// A fan-out of the bridge's interaction observer, so the audit file and the live view both watch one
// bridge.
import type { InteractionObserver } from '../protocol/interaction-observer.js';

/** The bridge's observer (protocol/interaction-observer.ts), under the name audit/ uses. */
export type Observer = InteractionObserver;

export function fanOut(observers: readonly Observer[]): Observer | undefined {
  if (observers.length <= 1) return observers[0];
  return {
    onStart: (e) => {
      for (const o of observers) o.onStart(e);
    },
    onRound: (e) => {
      for (const o of observers) o.onRound(e);
    },
    onAnswers: (e) => {
      for (const o of observers) o.onAnswers(e);
    },
    onReplay: (e) => {
      for (const o of observers) o.onReplay?.(e);
    },
    onEnd: (e) => {
      for (const o of observers) o.onEnd(e);
    },
  };
}
