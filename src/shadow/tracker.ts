// Follows one primary upstream's interactive calls from the bridge's events and, when a call the
// shadow wants has ended with the legacy server's answer, hands over the request to replay: its
// target params, the client's capabilities, each question asked with the client's answer, and the
// outcome. Calls that ended otherwise (cancelled, expired, lost) have nothing to compare.
import type { InteractionObserver } from '../protocol/interaction-observer.js';
import type { JsonObject, Root } from '../protocol/json.js';
import type { RecordEntry } from '../protocol/replay-match.js';
import type { Exchange } from './answers.js';
import type { ShadowRequest } from './run.js';

/** What the tracker hears: the bridge's interaction observer (replays are not compared). */
export type InteractionEvents = InteractionObserver;

export interface TrackerHooks {
  /** The params to send the candidate when this call is to be compared, else undefined. */
  wants(method: string, params: JsonObject): JsonObject | undefined;
  ended(req: ShadowRequest, primaryRounds: number): void;
  /** A wanted call ended without an outcome to compare. */
  skipped(method: string): void;
}

interface Open {
  method: string;
  params: JsonObject;
  capabilities: JsonObject;
  rounds: number;
  exchanges: Exchange[];
  /** Questions of the current round by input key, in the order asked. */
  asked: Map<string, { method: string; params?: Record<string, unknown> | undefined }>;
}

/** Calls whose end never came (should not happen) are forgotten beyond this many. */
const MAX_OPEN = 10_000;

export function trackInteractions(hooks: TrackerHooks): InteractionEvents {
  const open = new Map<string, Open>();
  return {
    onStart(e) {
      const params = hooks.wants(e.method, e.params);
      if (!params) return;
      if (open.size >= MAX_OPEN) open.delete(open.keys().next().value!);
      open.set(e.handle, {
        method: e.method,
        params,
        capabilities: { ...(e.capabilities ?? {}) },
        rounds: e.roundsBefore ?? 0,
        // A replayed run is answered from its record: what earlier runs asked and the client answered.
        exchanges: [...rootsExchange(e.roots, e.rootsRound === true), ...recordedExchanges(e.recorded)],
        asked: new Map(),
      });
    },
    onRound(e) {
      const o = open.get(e.handle);
      if (!o) return;
      o.rounds = Math.max(o.rounds, e.round);
      o.asked = new Map(e.asked.map((a) => [a.key, { method: a.method, params: a.params }]));
    },
    onAnswers(e) {
      const o = open.get(e.handle);
      if (!o) return;
      for (const [key, q] of o.asked) if (e.answers.has(key)) o.exchanges.push({ method: q.method, params: q.params, answer: e.answers.get(key) });
      o.asked = new Map();
    },
    onEnd(e) {
      const o = open.get(e.handle);
      if (!o) return;
      open.delete(e.handle);
      // A replayed run let go at a question is not the call's end: the retry runs it again.
      if (e.reason === 'let_go') return;
      if (e.reason !== 'completed' || (!e.result && !e.error)) return hooks.skipped(o.method);
      const primary = e.error ? { kind: 'error' as const, code: e.error.code } : { kind: 'result' as const, result: e.result! };
      hooks.ended({ method: o.method, params: o.params, capabilities: o.capabilities, exchanges: o.exchanges, primary }, o.rounds);
    },
  };
}

/**
 * The roots the call's session serves, for any roots/list the candidate asks; `rootsRound` when
 * the proxy asked for them before the call (else the client gave them in an earlier run's round).
 */
export function rootsExchange(roots: readonly Root[] | undefined, rootsRound = false): Exchange[] {
  return roots ? [{ method: 'roots/list', answer: { roots: roots.map((r) => ({ ...r })) }, reusable: true, ...(rootsRound ? { rootsRound } : {}) }] : [];
}

/** The answered entries of a replayed call's record (in the order the legacy server asked). */
function recordedExchanges(recorded: readonly RecordEntry[] | undefined): Exchange[] {
  return [...(recorded ?? [])]
    .filter((r) => r.a !== undefined)
    .sort((a, b) => a.n - b.n)
    .map((r) => ({ method: r.m, digest: r.d, answer: r.a }));
}
