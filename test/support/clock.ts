// A clock for tests: time stands still except when the test advances it or a timer fires (a timer
// that fires moves the clock to its due time). Timers still run on real time, so code under test
// that waits a few milliseconds behaves as in production, while TTLs and expiries are exact.
import type { Cancel, Clock } from '../../src/clock.js';

export interface TestClock extends Clock {
  advance(ms: number): number;
}

export function testClock(start = 1_700_000_000_000): TestClock {
  let now = start;
  const reach = (due: number) => {
    if (due > now) now = due;
  };
  const clock: TestClock = {
    now: () => now,
    advance: (ms) => (now += ms),
    after(ms, fn): Cancel {
      const due = now + Math.max(0, ms);
      const t = setTimeout(
        () => {
          reach(due);
          fn();
        },
        Math.max(0, ms),
      );
      return () => clearTimeout(t);
    },
    every(ms, fn): Cancel {
      const t = setInterval(() => {
        reach(now + ms);
        fn();
      }, ms);
      t.unref();
      return () => clearInterval(t);
    },
    sleep(ms, signal) {
      return new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        const cancel = clock.after(ms, () => {
          signal?.removeEventListener('abort', stop);
          resolve();
        });
        const stop = () => {
          cancel();
          resolve();
        };
        signal?.addEventListener('abort', stop, { once: true });
      });
    },
    turn: () => new Promise<void>((resolve) => setImmediate(resolve)),
  };
  return clock;
}
