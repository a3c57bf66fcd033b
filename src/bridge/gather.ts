// When a round of legacy requests is complete enough to go to the client. A legacy server that asks
// several things at once (it awaits them together) sends them back to back, well within a
// millisecond; one that asks one thing sends nothing more until it has the answer. So the round
// closes as soon as the legacy session has been quiet for `quietMs` after its latest request, and
// at the latest `windowMs` (--gather-window) after the first one. Pure: the interaction feeds it
// the times and waits as long as it says.

/** How long the legacy session must stay quiet after its latest request before the round closes. */
// 5 ms, not 1: on a loaded machine a server's back-to-back writes were seen more than 1 ms apart
// (ask-all split into two rounds), which costs a client a round trip; 5 ms still spares a one-question
// round most of the 25 ms window.
export const GATHER_QUIET_MS = 5;

export interface GatherTimes {
  /** When the first request of the round arrived. */
  firstAt: number;
  /** When the latest request of the round arrived. */
  lastAt: number;
  now: number;
  /** The upper bound (--gather-window); 0 closes the round at once. */
  windowMs: number;
  quietMs: number;
}

export type GatherDecision = { kind: 'close' } | { kind: 'wait'; ms: number };

export function gatherDecision(t: GatherTimes): GatherDecision {
  const closeAt = Math.min(t.firstAt + t.windowMs, t.lastAt + Math.min(t.quietMs, t.windowMs));
  return t.now >= closeAt ? { kind: 'close' } : { kind: 'wait', ms: closeAt - t.now };
}
