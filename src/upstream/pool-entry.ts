// One pooled session's bookkeeping, the lease handed out on it, and the pool's counts: the plain
// data half of the pool (pool.ts decides where leases go and opens and closes sessions).
import type { LegacyCapabilities } from '../protocol/capabilities.js';
import type { RootsBinding } from '../protocol/roots.js';
import type { Lease, LeaseMode, PooledSession, PoolStats } from './lease.js';
import { mayWait } from './lease-choice.js';

export interface Entry<S extends PooledSession> {
  session: S;
  caps: LegacyCapabilities;
  roots: RootsBinding;
  key: string;
  held: boolean;
  /** Held by an interaction that waits for a client. */
  waiting: boolean;
  /** Shared leases on it. */
  shared: number;
  /** Shared leases on it whose calls wait for a client. */
  sharedWaiting: number;
  idleSince: number;
}

export interface LeaseHooks {
  now(): number;
  /** Hands freed capacity to queued requests. */
  drain(): void;
  /** Closes the entry's session and takes it out of the pool. */
  remove(reason: string): void;
  /** May this lease's call wait for its client now (see mayWaitIn)? */
  mayWait(): boolean;
  /** It does. */
  waits(): void;
}

/** A lease on `entry`; `reserved`: a shared lease already counted on it. */
export function leaseEntry<S extends PooledSession>(entry: Entry<S>, mode: LeaseMode, reserved: boolean, hooks: LeaseHooks): Lease<S> {
  if (mode === 'exclusive') entry.held = true;
  else if (!reserved) entry.shared++;
  let done = false;
  let waiting = false;
  const stopWaiting = () => {
    if (!waiting) return;
    waiting = false;
    if (mode === 'exclusive') entry.waiting = false;
    else entry.sharedWaiting--;
  };
  const finish = () => {
    if (done) return false;
    done = true;
    stopWaiting();
    if (mode === 'exclusive') entry.held = false;
    else entry.shared--;
    entry.idleSince = hooks.now();
    return true;
  };
  return {
    session: entry.session,
    mode,
    release: () => {
      if (finish()) hooks.drain();
    },
    discard: (reason) => {
      if (finish()) hooks.remove(reason);
    },
    markWaiting: () => {
      if (done || waiting) return true;
      if (!hooks.mayWait()) return false;
      waiting = true;
      if (mode === 'exclusive') entry.waiting = true;
      else entry.sharedWaiting++;
      hooks.waits();
      return true;
    },
    markActive: stopWaiting,
  };
}

/** May one more call of `mode` wait for its client, given the waiting calls on `entries`? */
export function mayWaitIn<S extends PooledSession>(entries: Iterable<Entry<S>>, mode: LeaseMode, perSession: number, maxWaiting: number): boolean {
  let exclusiveWaiting = 0;
  let sharedWaiting = 0;
  for (const e of entries) {
    if (e.waiting) exclusiveWaiting++;
    sharedWaiting += e.sharedWaiting;
  }
  return mayWait(mode, exclusiveWaiting, sharedWaiting, perSession, maxWaiting);
}

/**
 * `onClient`: sessions with a call waiting for its client; `saturated`: every session allowed is
 * in use (held, or carrying shared calls), so a call that needs a session of its own has to queue.
 */
export function poolStats<S extends PooledSession>(
  entries: Iterable<Entry<S>>,
  o: { connecting: number; waiting: number; callsPerSession: number; maxSessions: number; maxWaiting: number },
): PoolStats {
  let sessions = 0;
  let held = 0;
  let shared = 0;
  let onClient = 0;
  let sharedCalls = 0;
  let waitingCalls = 0;
  for (const e of entries) {
    sessions++;
    if (e.held) held++;
    else if (e.shared > 0) shared++;
    if (e.waiting || e.sharedWaiting > 0) onClient++;
    sharedCalls += e.shared;
    waitingCalls += e.sharedWaiting + (e.waiting ? 1 : 0);
  }
  const saturated = held + shared + o.connecting >= o.maxSessions;
  return { sessions, held, shared, onClient, sharedCalls, waitingCalls, ...o, saturated };
}
