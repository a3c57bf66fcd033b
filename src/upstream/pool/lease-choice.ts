// Where a lease goes: an open session, a session still starting, a new session, or the queue.
// Exclusive leases need a session nobody uses. Shared leases pack: the fullest session still under
// --calls-per-session takes the next call, so lightly used sessions drain, go idle and can be
// leased exclusively or closed; a new session starts only when every one is full. Runner leases
// pack the same way but need a free runner slot on a session where no parked call's answer waits
// for it; when every slot is taken they queue (a slot is busy only until its call parks or ends),
// and one more session is started for them at a time, so a burst of runners grows the pool by
// demand for slots, not by the number of users who will park. Pure.
import type { LeaseMode } from './lease.js';

/** An open session of the capability set asked for. */
export interface OpenSession {
  held: boolean;
  /** Shared and runner leases on it (running or parked). */
  shared: number;
  /** A running call holds its runner slot. */
  runner: boolean;
  /** Parked calls whose answers wait for its runner slot. */
  resuming: number;
}

/** A session being started for shared leases, how many leases already wait for it, and whether one of them is its runner. */
export interface StartingSession {
  joined: number;
  runner: boolean;
}

export type Choice = { kind: 'take'; index: number } | { kind: 'join'; index: number } | { kind: 'open' } | { kind: 'queue' };

/**
 * `preferred`: the index of a session to take when the lease fits there (a call re-sent where its
 * server asked before). `canOpen`: a new session may be started now (perhaps by evicting an idle
 * one of another set).
 * Shared leases past every session's cap, with no room to open, go to the least used session
 * rather than queue: a shared session is never unavailable to one more call.
 */
export function chooseLease(
  mode: LeaseMode,
  open: readonly OpenSession[],
  starting: readonly StartingSession[],
  canOpen: boolean,
  perSession: number,
  preferred = -1,
): Choice {
  const p = open[preferred];
  if (p && fits(mode, p, perSession)) return { kind: 'take', index: preferred };
  if (mode === 'runner') return chooseRunner(open, starting, canOpen, perSession);
  if (mode === 'exclusive') {
    const free = open.findIndex((s) => !s.held && s.shared === 0);
    if (free >= 0) return { kind: 'take', index: free };
    return canOpen ? { kind: 'open' } : { kind: 'queue' };
  }
  const fullest = pick(
    open,
    (s) => !s.held && s.shared < perSession,
    (a, b) => a.shared > b.shared,
  );
  if (fullest >= 0) return { kind: 'take', index: fullest };
  const room = pick(
    starting,
    (s) => s.joined < perSession,
    (a, b) => a.joined > b.joined,
  );
  if (room >= 0) return { kind: 'join', index: room };
  if (canOpen) return { kind: 'open' };
  const least = pick(
    open,
    (s) => !s.held,
    (a, b) => a.shared < b.shared,
  );
  if (least >= 0) return { kind: 'take', index: least };
  const emptiest = pick(
    starting,
    () => true,
    (a, b) => a.joined < b.joined,
  );
  return emptiest >= 0 ? { kind: 'join', index: emptiest } : { kind: 'queue' };
}

/**
 * A free runner slot: the fullest session under the cap whose slot is free and wanted by no parked
 * call's answer; then a starting session no runner has joined; then (when no session is starting
 * already) a new one; past the cap with no room, any free slot; else the queue.
 */
function chooseRunner(open: readonly OpenSession[], starting: readonly StartingSession[], canOpen: boolean, perSession: number): Choice {
  const free = (s: OpenSession) => !s.held && !s.runner && s.resuming === 0;
  const fullest = pick(
    open,
    (s) => free(s) && s.shared < perSession,
    (a, b) => a.shared > b.shared,
  );
  if (fullest >= 0) return { kind: 'take', index: fullest };
  const idle = starting.findIndex((s) => !s.runner && s.joined < perSession);
  if (idle >= 0) return { kind: 'join', index: idle };
  if (canOpen && starting.length === 0) return { kind: 'open' };
  const least = pick(open, free, (a, b) => a.shared < b.shared);
  return least >= 0 ? { kind: 'take', index: least } : { kind: 'queue' };
}

/** Whether a lease of `mode` may go on this open session now, within the cap. */
function fits(mode: LeaseMode, s: OpenSession, perSession: number): boolean {
  if (s.held) return false;
  if (mode === 'exclusive') return s.shared === 0;
  if (mode === 'runner' && (s.runner || s.resuming > 0)) return false;
  return s.shared < perSession;
}

function pick<T>(items: readonly T[], ok: (t: T) => boolean, better: (a: T, b: T) => boolean): number {
  let best = -1;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (ok(item) && (best < 0 || better(item, items[best]!))) best = i;
  }
  return best;
}

/**
 * The waiting load, in sessions: a session held exclusively by a call waiting for its client counts
 * one, a waiting call on a shared session (a parked runner included) 1/perSession of one.
 * `--waiting-share` caps it.
 */
export function waitingLoad(exclusiveWaiting: number, sharedWaiting: number, perSession: number): number {
  return exclusiveWaiting + sharedWaiting / perSession;
}

/** May one more call of `mode` wait for its client without the waiting load passing `maxWaiting`? */
export function mayWait(mode: LeaseMode, exclusiveWaiting: number, sharedWaiting: number, perSession: number, maxWaiting: number): boolean {
  const after =
    mode === 'exclusive' ? waitingLoad(exclusiveWaiting + 1, sharedWaiting, perSession) : waitingLoad(exclusiveWaiting, sharedWaiting + 1, perSession);
  return after <= maxWaiting + 1e-9;
}
