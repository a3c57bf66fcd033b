// What the live view shows of the bridges: interactive calls in flight, the ones waiting for
// their client (by tool, with age and round) and the most recent rounds. In memory, shapes only
// (method names and input keys, never what was asked or answered); listeners hear of each change.
import type { Clock } from '../clock.js';
import type { Observer } from './observers.js';
import { targetOf } from './record.js';

export interface LiveCall {
  upstream: string;
  method: string;
  target: string;
  state: 'working' | 'waiting';
  round: number;
  startedAt: number;
  /** When it entered its current state. */
  since: number;
  /** Methods asked in the current round (while waiting). */
  asking: string[];
}

export interface LiveRound {
  at: number;
  upstream: string;
  target: string;
  round: number;
  event: 'asked' | 'answered' | 'ended';
  detail: string;
}

/** A shadow comparison that did not match: where, and which paths differed (never the values). */
export interface LiveShadowDifference {
  at: number;
  upstream: string;
  candidate: string;
  method: string;
  target: string;
  outcome: 'differ' | 'candidate_error';
  detail: string;
}

export interface LiveSnapshot {
  now: number;
  calls: LiveCall[];
  recent: LiveRound[];
  /** The most recent shadow differences, newest first. */
  shadow: LiveShadowDifference[];
}

const RECENT = 30;

export class LiveInteractions {
  private readonly calls = new Map<string, LiveCall>();
  private readonly recent: LiveRound[] = [];
  private readonly shadow: LiveShadowDifference[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(private readonly clock: Clock) {}

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  snapshot(): LiveSnapshot {
    return {
      now: this.clock.now(),
      calls: [...this.calls.values()].map((c) => ({ ...c, asking: [...c.asking] })),
      recent: [...this.recent],
      shadow: [...this.shadow],
    };
  }

  /** A shadow comparison that did not match (shown in the shadow differences panel). */
  shadowDifference(d: LiveShadowDifference): void {
    this.shadow.unshift({ ...d });
    this.shadow.length = Math.min(this.shadow.length, RECENT);
    this.changed();
  }

  /** The observer for one upstream's bridge. */
  observerFor(upstream: string): Observer {
    return {
      onStart: (e) => {
        const now = this.clock.now();
        this.calls.set(e.handle, {
          upstream,
          method: e.method,
          target: targetOf(e.method, e.params),
          state: 'working',
          // A replay run carries on from the rounds its earlier runs took.
          round: e.roundsBefore ?? 0,
          startedAt: now,
          since: now,
          asking: [],
        });
        this.changed();
      },
      onRound: (e) => {
        const c = this.calls.get(e.handle);
        if (!c) return;
        Object.assign(c, { state: 'waiting', round: e.round, since: this.clock.now(), asking: e.asked.map((a) => a.method) });
        this.note(c, 'asked', e.asked.map((a) => `${a.key} (${a.method})`).join(', '));
      },
      onAnswers: (e) => {
        const c = this.calls.get(e.handle);
        if (!c) return;
        Object.assign(c, { state: 'working', since: this.clock.now(), asking: [] });
        this.note(c, 'answered', [...e.answers.keys()].join(', '));
      },
      onEnd: (e) => {
        const c = this.calls.get(e.handle);
        if (!c) return;
        this.calls.delete(e.handle);
        this.note(c, 'ended', e.error ? `error ${e.error.code}` : (e.why ?? e.reason));
      },
    };
  }

  private note(c: LiveCall, event: LiveRound['event'], detail: string): void {
    this.recent.unshift({ at: this.clock.now(), upstream: c.upstream, target: c.target, round: c.round, event, detail });
    this.recent.length = Math.min(this.recent.length, RECENT);
    this.changed();
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}
