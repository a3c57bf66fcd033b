// The one clock and scheduler of the process. Everything that reads the time or waits for it takes
// a Clock, so tests can run the bridge, the pool and the sweepers on a simulated clock.

export type Cancel = () => void;

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` once after `ms`; the returned function cancels it. */
  after(ms: number, fn: () => void): Cancel;
  /** Runs `fn` every `ms` until cancelled. Never keeps the process alive. */
  every(ms: number, fn: () => void): Cancel;
  /** Resolves after `ms` (or at once when `signal` aborts). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Resolves in the event loop's check phase (setImmediate). Called from a timer or from the check
   * phase, the loop polls I/O first: what had already arrived on a socket or pipe when it was called
   * has been handled by then (a timer callback runs before the loop reads I/O that came in while
   * the process waited for the CPU). Called from an I/O callback, it resolves after that same poll,
   * before the next one.
   */
  turn(): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const t = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(t);
  },
  every(ms, fn) {
    const t = setInterval(fn, ms);
    t.unref();
    return () => clearInterval(t);
  },
  sleep(ms, signal) {
    return new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(t);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const t = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
    });
  },
  // setImmediate runs in the check phase, after the poll phase of the same loop iteration; one
  // scheduled from the check phase runs in the next iteration's.
  turn: () => new Promise<void>((resolve) => setImmediate(resolve)),
};
