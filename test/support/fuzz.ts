// What the property-based tests give fast-check: a fixed number of runs, never a wall-clock cutoff
// (which passes with however few runs a loaded machine reached), from a seed the run prints, so that
// any run can be replayed: MRTR_FUZZ_SEED=N.
import type { TestContext } from 'node:test';

/** fc.assert parameters for `numRuns` runs from a fresh seed, or MRTR_FUZZ_SEED's; the seed is printed. */
export function fuzzRuns(t: TestContext, numRuns: number): { numRuns: number; seed: number } {
  const given = process.env['MRTR_FUZZ_SEED'];
  const seed = given === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(given);
  if (!Number.isSafeInteger(seed)) throw new Error(`MRTR_FUZZ_SEED: expected an integer, got '${given}'`);
  t.diagnostic(`fast-check seed ${seed}, ${numRuns} runs (MRTR_FUZZ_SEED=${seed} replays them)`);
  return { numRuns, seed };
}
