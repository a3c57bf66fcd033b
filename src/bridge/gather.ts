// When a round of legacy requests is complete enough to go to the client. A legacy server that asks
// several things at once (it awaits them together) sends them back to back, well within a
// millisecond; one that asks one thing sends nothing more until it has the answer. So the round
// closes as soon as the legacy session has been quiet for `quietMs` after its latest request (and the
// event loop has read whatever had arrived by then), and at the latest `windowMs` (--gather-window)
// after the first one. A local child that is still running once the quiet period has passed was
// preempted, not done: the round stays open while it runs (upstream/child/process-running.ts), within the
// window. Timing alone is all there is over HTTP and WebSocket; there, a wait that ended late means
// the machine is short of CPU, and a server waiting for a CPU between two sends looks quiet too, so
// a late wake also keeps the round open for another quiet period (within the window).
// Pure: the interaction feeds it the times and waits as long as it says.

/** How long the legacy session must stay quiet after its latest request before the round closes. */
// With the I/O turn below, 1 ms is enough: the split once seen with 1 ms alone (ask-all in two rounds
// on a loaded machine) was the quiet timer firing before the loop had read the second request, which
// had already arrived while the proxy waited for the CPU.
export const GATHER_QUIET_MS = 1;

/** A wait that ended this much later than asked means the process waited for a CPU (a 1 ms timer is rarely 1 ms late). */
export const GATHER_LATE_MS = 2;

export interface GatherTimes {
  /** When the first request of the round arrived. */
  firstAt: number;
  /** When the latest request of the round arrived. */
  lastAt: number;
  now: number;
  /** The upper bound (--gather-window); 0 closes the round at once. */
  windowMs: number;
  quietMs: number;
  /** The `lastAt` for which an I/O turn was already let through once the quiet period had passed. */
  settledLastAt?: number | undefined;
  /**
   * Whether the legacy server's local process is running; read only once the quiet period has
   * passed within the window, where it decides (a read of /proc costs tens of µs). Absent: unknown.
   */
  upstreamRunning?: (() => boolean | undefined) | undefined;
  /** How much later than asked the latest wait ended (negative or absent: on time, or woken by a request). */
  lateMs?: number | undefined;
}

/**
 * `settle`: the quiet period has passed, but requests that arrived while the process waited may not
 * have been read yet; let the loop read pending I/O once (Clock.turn) and decide again.
 */
export type GatherDecision = { kind: 'close' } | { kind: 'wait'; ms: number } | { kind: 'settle' };

export function gatherDecision(t: GatherTimes): GatherDecision {
  if (t.windowMs <= 0) return { kind: 'close' };
  const windowEnd = t.firstAt + t.windowMs;
  if (t.now >= windowEnd) return { kind: 'close' };
  const quietEnd = t.lastAt + Math.min(t.quietMs, t.windowMs);
  if (t.now < quietEnd) return { kind: 'wait', ms: Math.min(quietEnd, windowEnd) - t.now };
  if ((t.lateMs ?? 0) >= GATHER_LATE_MS || t.upstreamRunning?.() === true) return { kind: 'wait', ms: Math.min(Math.max(t.quietMs, 1), windowEnd - t.now) };
  return t.settledLastAt === t.lastAt ? { kind: 'close' } : { kind: 'settle' };
}
