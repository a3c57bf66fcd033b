// Closed-loop load: each worker (one simulated client) sends its next request as soon as the
// previous one answered. Bounded by time and by count.
import { performance } from 'node:perf_hooks';
import { percentileSorted } from './stats.js';

export interface LoadResult {
  calls: number;
  elapsedMs: number;
  /** Completed calls per second over the whole window. */
  throughput: number;
  p50: number;
  p99: number;
  errors: number;
}

export async function closedLoop(workers: Array<() => Promise<unknown>>, durationMs: number, maxCallsPerWorker = 1_000_000): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const deadline = start + durationMs;
  await Promise.all(
    workers.map(async (call) => {
      for (let i = 0; i < maxCallsPerWorker; i++) {
        const t0 = performance.now();
        if (t0 >= deadline) return;
        try {
          await call();
          latencies.push(performance.now() - t0);
        } catch (err) {
          errors++;
          if (errors > 50) throw err;
        }
      }
    }),
  );
  const elapsedMs = performance.now() - start;
  const sorted = Float64Array.from(latencies).sort();
  return {
    calls: latencies.length,
    elapsedMs,
    throughput: (latencies.length / elapsedMs) * 1000,
    p50: percentileSorted(sorted, 50),
    p99: percentileSorted(sorted, 99),
    errors,
  };
}

/** Times `n` sequential runs of `fn` and returns each duration in ms. */
export async function timeEach(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

/** Runs `fn(0) … fn(n - 1)`, `concurrency` at a time (each worker takes the next index when free). */
export async function inParallel(n: number, concurrency: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}
