// What the session pool hands out and reports: the lease a caller holds, the options and stats of
// a pool, and the share of sessions that interactions waiting for a client may hold.
//
// Three ways to hold a session. `shared`: the call's legacy requests can be told apart from other
// calls' (they come tied to it, or it never asks), so it runs beside anything. `runner`: its
// requests come untied, so it must be the only such call *running* on its session: it takes the
// session's runner slot while it runs and gives it up once it is parked, waiting for its client
// with nothing more on its way (a parked call cannot ask: its legacy handler waits for the
// answers). `exclusive`: the session is its alone
// (a call that asked while another untied call ran, so the runner rule cannot place it).
import type { LegacyCapabilities } from '../../protocol/capabilities.js';
import type { RootsBinding } from '../../protocol/roots.js';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../telemetry/logger.js';

export type LeaseMode = 'exclusive' | 'shared' | 'runner';

/** The default of --calls-per-session. */
export const DEFAULT_CALLS_PER_SESSION = 256;

/** What the pool needs of a session: LegacySession in production, a fake in unit tests. */
export interface PooledSession {
  readonly id: string;
  readonly closed: boolean;
  readonly closeReason: string;
  close(reason: string): Promise<void>;
}

export interface Lease<S extends PooledSession> {
  readonly session: S;
  /** Shared: other calls use the session too, so ending this call must not close it. */
  readonly mode: LeaseMode;
  /** Returns a healthy session to the pool. Idempotent. */
  release(): void;
  /** Closes the session (its state is unknown or spoiled). Idempotent. */
  discard(reason: string): void;
  /**
   * The holder now waits for a client (between two rounds). False, and nothing changes, when the
   * sessions allowed to wait are all taken: the holder must not wait.
   */
  markWaiting(): boolean;
  /**
   * The waiting holder is parked: its legacy handler waits for the answers and has nothing more on
   * its way, so it cannot ask. A runner gives up its session's runner slot: the next untied call
   * may run. Nothing for a holder that is not waiting.
   */
  markParked(): void;
  /**
   * The holder works again (its retry arrived). Resolves once it may run: at once, except for a
   * runner that gave up its slot, which waits for it (answers waiting for a slot go before new
   * runners). Also resolves when the lease ends meanwhile.
   */
  markActive(): Promise<void>;
}

export interface PoolOptions<S extends PooledSession> {
  maxSessions: number;
  /** The waiting load allowed, in sessions (see waitingLoad in lease-choice.ts), at most `maxSessions`. */
  maxWaiting: number;
  /**
   * Shared calls a session takes before another session is started for them (a soft cap: with no
   * room for another session, the least used one takes more). Default DEFAULT_CALLS_PER_SESSION.
   */
  callsPerSession?: number;
  /** Idle sessions kept ready per capability set in use, so the next interactive call does not wait for a start-up. */
  spareSessions: number;
  waitMs: number;
  idleTtlMs: number;
  connect(caps: LegacyCapabilities, roots: RootsBinding): Promise<S>;
  /** How long a parked runner's answers waited for its session's runner slot, each time one did. */
  slotWaited?(seconds: number): void;
  clock: Clock;
  log: Logger;
}

/**
 * How many sessions interactions waiting for a client may hold: `percent` of `maxSessions`, at
 * least one (with a single session there is nothing to keep back).
 */
export function waitingCap(maxSessions: number, percent: number): number {
  return Math.max(1, Math.floor((maxSessions * percent) / 100));
}

export interface PoolStats {
  sessions: number;
  held: number;
  /** Not held, serving at least one shared lease. */
  shared: number;
  connecting: number;
  /** Slots held by legacy clients' own sessions, relayed as they are (SessionPool.reserveOutside). */
  passThrough: number;
  waiting: number;
  /** Sessions with at least one call waiting for its client. */
  onClient: number;
  /** Calls on shared leases. */
  sharedCalls: number;
  /** Calls waiting for their client, on exclusive and on shared leases. */
  waitingCalls: number;
  /** Sessions whose runner slot a running call holds. */
  runners: number;
  /** Parked calls whose answers arrived and wait for their session's runner slot. */
  slotWaits: number;
  callsPerSession: number;
  maxSessions: number;
  maxWaiting: number;
  saturated: boolean;
}
