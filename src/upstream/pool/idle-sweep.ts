// How often idle legacy sessions are looked for. A session idle for the TTL is closed at the next
// sweep, so the sweep runs every quarter of the TTL: it closes within 1.25 × TTL, and never more
// than 30 s late.
import type { Cancel, Clock } from '../../clock.js';

const MIN_SWEEP_MS = 250;
const MAX_SWEEP_MS = 30_000;

export function idleSweepEveryMs(idleTtlMs: number): number {
  return Math.max(MIN_SWEEP_MS, Math.min(idleTtlMs / 4, MAX_SWEEP_MS));
}

/** Runs `sweep` at that cadence until cancelled. */
export function startIdleSweeper(clock: Clock, idleTtlMs: number, sweep: () => void): Cancel {
  return clock.every(idleSweepEveryMs(idleTtlMs), sweep);
}
