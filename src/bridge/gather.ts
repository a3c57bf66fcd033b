// When a round of legacy requests is complete enough to go to the client. A legacy server that asks
// several things at once (it awaits them together) sends them back to back; one that asks one thing
// sends nothing more until it has the answer. So the round closes once the server is known to wait:
//   - a local child (stdio) waits when none of its threads runs and no line of its output is half
//     read (upstream/child/process-running.ts). Seen waiting, it has written all it had; the loop
//     then reads pending I/O once (Clock.turn), and a round that gained no request by then closes.
//     Seen running, it is read again after an I/O turn, a few times within the quiet period. A
//     process that keeps a thread busy beside its event loop never reads as waiting: after those
//     turns its round is closed by timing, as below, once its main thread is not running;
//   - over HTTP and WebSocket nothing tells, so timing alone decides: the round closes once the
//     session has been quiet for `quietMs` after its latest request (and the loop has read whatever
//     had arrived by then). There a wait that ended late means the machine is short of CPU, and a
//     server waiting for a CPU between two sends looks quiet too, so a late wake keeps the round
//     open for another quiet period.
// Either way the round closes at the latest `windowMs` (--gather-window) after its first request.
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
  /** The `lastAt` for which an I/O turn was already let through once the server was seen waiting (or quiet). */
  settledLastAt?: number | undefined;
  /**
   * Given for a server that is a local process (stdio): whether it runs (true) or waits (false),
   * any of its threads or its main thread only; undefined when that cannot be read, and timing
   * decides. Read within the window only.
   */
  upstreamRunning?: ((threads: 'all' | 'main') => boolean | undefined) | undefined;
  /** Reads since the latest request that found the process running. */
  runningReads?: number | undefined;
  /** How much later than asked the latest wait ended (negative or absent: on time, or woken by a request). */
  lateMs?: number | undefined;
}

/** A running process is read again after this many I/O turns at most (within the quiet period); then timing decides. */
export const GATHER_RUNNING_TURNS = 8;

/**
 * `settle`: the server waits (or has been quiet), but requests it sent before may not have been read
 * yet; let the loop read pending I/O once (Clock.turn) and decide again (`waiting`: the local process
 * was seen waiting). `recheck`: the process still runs; let the loop read pending I/O once and read
 * the process again.
 */
export type GatherDecision = { kind: 'close' } | { kind: 'wait'; ms: number } | { kind: 'settle'; waiting?: true } | { kind: 'recheck' };

export function gatherDecision(t: GatherTimes): GatherDecision {
  if (t.windowMs <= 0) return { kind: 'close' };
  const windowEnd = t.firstAt + t.windowMs;
  if (t.now >= windowEnd) return { kind: 'close' };
  const nextQuiet = () => ({ kind: 'wait' as const, ms: Math.min(Math.max(t.quietMs, 1), windowEnd - t.now) });
  if (t.upstreamRunning) {
    // Seen waiting and the loop has read what it had sent (or quiet, where it could not be read).
    if (t.settledLastAt === t.lastAt) return { kind: 'close' };
    // Turns come back slowly on a busy proxy (each one polls every ready socket): past the quiet
    // period they are no faster than timing, and the call keeps its runner slot all the while.
    const reads = t.runningReads ?? 0;
    if (reads === 0 || (reads < GATHER_RUNNING_TURNS && t.now < t.lastAt + t.quietMs)) {
      const running = t.upstreamRunning('all');
      if (running === false) return { kind: 'settle', waiting: true };
      if (running === true) return { kind: 'recheck' };
    }
  }
  const quietEnd = t.lastAt + Math.min(t.quietMs, t.windowMs);
  if (t.now < quietEnd) return { kind: 'wait', ms: Math.min(quietEnd, windowEnd) - t.now };
  if ((t.lateMs ?? 0) >= GATHER_LATE_MS || t.upstreamRunning?.('main') === true) return nextQuiet();
  return t.settledLastAt === t.lastAt ? { kind: 'close' } : { kind: 'settle' };
}
