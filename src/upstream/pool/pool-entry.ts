// One pooled session's bookkeeping, the lease handed out on it, and the pool's counts: the plain
// data half of the pool (pool.ts decides where leases go and opens and closes sessions).
import type { LegacyCapabilities } from '../../protocol/capabilities.js';
import type { RootsBinding } from '../../protocol/roots.js';
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
  /** Shared and runner leases on it. */
  shared: number;
  /** Shared and runner leases on it whose calls wait for a client. */
  sharedWaiting: number;
  /** A running call holds the runner slot (see lease.ts). */
  runner: boolean;
  /** Parked runners whose answers arrived, in arrival order: each gets the slot in turn, before any new runner. */
  resuming: Array<() => void>;
  idleSince: number;
}

/** A new entry's bookkeeping, nothing leased. */
export function newEntry<S extends PooledSession>(session: S, caps: LegacyCapabilities, roots: RootsBinding, key: string, now: number): Entry<S> {
  return { session, caps, roots, key, held: false, waiting: false, shared: 0, sharedWaiting: 0, runner: false, resuming: [], idleSince: now };
}

/** What a lease asks of its pool: one object per pool, shared by all its leases. */
export interface LeaseHooks<S extends PooledSession> {
  now(): number;
  /** Hands freed capacity to queued requests. */
  drain(): void;
  /** Closes the entry's session and takes it out of the pool. */
  remove(entry: Entry<S>, reason: string): void;
  /** May a call of `mode` wait for its client now (see mayWaitIn)? */
  mayWait(mode: LeaseMode): boolean;
  /** A call of `mode` on `entry` does. */
  waits(entry: Entry<S>, mode: LeaseMode): void;
  /** A parked runner's answers waited `ms` for the runner slot. */
  slotWaited(ms: number): void;
}

/**
 * A lease on `entry`; `reserved`: a shared or runner lease already counted on it. A class rather
 * than an object of closures: a call waiting for its client holds its lease for as long as the
 * person thinks, and the methods on the prototype cost it nothing.
 */
export class EntryLease<S extends PooledSession> implements Lease<S> {
  private done = false;
  private waiting = false;
  /** A runner holds its session's runner slot (from the start, and again once resumed). */
  private slot: boolean;
  /** A resumed runner waiting in `entry.resuming` for the slot. */
  private queued: (() => void) | undefined;

  constructor(
    private readonly entry: Entry<S>,
    readonly mode: LeaseMode,
    reserved: boolean,
    private readonly hooks: LeaseHooks<S>,
  ) {
    if (mode === 'exclusive') entry.held = true;
    else if (!reserved) entry.shared++;
    this.slot = mode === 'runner';
    if (this.slot) entry.runner = true;
  }

  get session(): S {
    return this.entry.session;
  }

  release(): void {
    if (this.finish()) this.hooks.drain();
  }

  discard(reason: string): void {
    if (this.finish()) this.hooks.remove(this.entry, reason);
  }

  markWaiting(): boolean {
    if (this.done || this.waiting) return true;
    if (!this.hooks.mayWait(this.mode)) return false;
    this.waiting = true;
    if (this.mode === 'exclusive') this.entry.waiting = true;
    else this.entry.sharedWaiting++;
    this.hooks.waits(this.entry, this.mode);
    return true;
  }

  markParked(): void {
    if (this.waiting && this.slot) this.freeSlot();
  }

  markActive(): Promise<void> {
    if (!this.waiting) return Promise.resolve();
    this.stopWaiting();
    // A runner that never gave up its slot (answered before it was parked) keeps it.
    if (this.mode !== 'runner' || this.done || this.slot) return Promise.resolve();
    if (!this.entry.runner && this.entry.resuming.length === 0) {
      this.takeSlot();
      return Promise.resolve();
    }
    const since = this.hooks.now();
    return new Promise<void>((resolve) => {
      const turn = () => {
        this.queued = undefined;
        if (!this.done) this.takeSlot();
        this.hooks.slotWaited(this.hooks.now() - since);
        resolve();
      };
      this.queued = turn;
      this.entry.resuming.push(turn);
    });
  }

  private stopWaiting(): void {
    this.waiting = false;
    if (this.mode === 'exclusive') this.entry.waiting = false;
    else this.entry.sharedWaiting--;
  }

  private takeSlot(): void {
    this.slot = true;
    this.entry.runner = true;
  }

  /** Hands the slot to the first answer waiting for it, or to whatever the pool has queued. */
  private freeSlot(): void {
    this.slot = false;
    this.entry.runner = false;
    const next = this.entry.resuming.shift();
    if (next) next();
    else this.hooks.drain();
  }

  private finish(): boolean {
    if (this.done) return false;
    this.done = true;
    if (this.waiting) this.stopWaiting();
    const turn = this.queued;
    if (turn) {
      this.entry.resuming.splice(this.entry.resuming.indexOf(turn), 1);
      turn();
    }
    if (this.mode === 'exclusive') this.entry.held = false;
    else this.entry.shared--;
    if (this.slot) {
      this.slot = false;
      this.entry.runner = false;
      this.entry.resuming.shift()?.();
    }
    this.entry.idleSince = this.hooks.now();
    return true;
  }
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
  o: { connecting: number; passThrough: number; waiting: number; callsPerSession: number; maxSessions: number; maxWaiting: number },
): PoolStats {
  let sessions = 0;
  let held = 0;
  let shared = 0;
  let onClient = 0;
  let sharedCalls = 0;
  let waitingCalls = 0;
  let runners = 0;
  let slotWaits = 0;
  for (const e of entries) {
    sessions++;
    if (e.runner) runners++;
    slotWaits += e.resuming.length;
    if (e.held) held++;
    else if (e.shared > 0) shared++;
    if (e.waiting || e.sharedWaiting > 0) onClient++;
    sharedCalls += e.shared;
    waitingCalls += e.sharedWaiting + (e.waiting ? 1 : 0);
  }
  const saturated = held + shared + o.connecting + o.passThrough >= o.maxSessions;
  return { sessions, held, shared, onClient, sharedCalls, waitingCalls, runners, slotWaits, ...o, saturated };
}
