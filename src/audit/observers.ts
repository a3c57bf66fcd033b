// The observer shape the bridge calls (restated structurally: audit sits beside the bridge, not
// above it) and a fan-out, so the audit file and the live view both watch one bridge.
import type { JsonObject } from '../protocol/json.js';

export interface Observer {
  onStart(e: {
    handle: string;
    method: string;
    params: JsonObject;
    mode: string;
    replay?: { call: string; run: number; answers: ReadonlyMap<string, unknown> };
  }): void;
  onRound(e: { handle: string; round: number; asked: ReadonlyArray<{ key: string; method: string; params?: Record<string, unknown> }> }): void;
  onAnswers(e: { handle: string; round: number; answers: ReadonlyMap<string, unknown> }): void;
  onReplay?(e: { handle: string; fromRecord: number; mismatched: number }): void;
  onEnd(e: { handle: string; reason: string; why?: string; result?: JsonObject; error?: { code: number; message: string } }): void;
}

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
