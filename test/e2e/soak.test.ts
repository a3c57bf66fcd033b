// The short soak (test/support/soak.ts): half a minute of mixed traffic over a Streamable HTTP and
// a stdio upstream, judged only on what cannot be noisy: descriptors (beyond the /proc files the
// proxy keeps while it reads its stdio children, which must all be closed once settled), upstream
// connections, legacy children and sessions stay within the in-flight slack of the first half of
// the run (when the abandoned calls have reached their steady number), nothing is pending once
// the ttl has passed, and every answer was what its request must get. Memory is the long soak's to
// judge (npm run bench -- soak).
// run-alone: half a minute of traffic as fast as the proxy answers, which would starve neighbours.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PROC_READABLE } from '../support/descriptors.js';
import { growth, soak } from '../support/soak.js';
import { skipOrFail } from '../support/skip.js';

describe('a short soak', { skip: skipOrFail('e2e/soak', !PROC_READABLE && 'it reads what the proxy holds from Linux /proc') }, () => {
  it('holds nothing more at the end than in its first seconds, and answers everything as it must', { timeout: 120_000 }, async () => {
    const result = await soak({ seconds: 30, sampleEverySeconds: 2, ttlSeconds: 3, abandonPerSecond: 2 });
    assert.deepEqual(result.unexpected, []);
    for (const kind of ['pass-through', 'interactive', 'abandoned', 'bad input', 'task', 'legacy client']) {
      assert.ok((result.sent[kind] ?? 0) > 5, `${kind}: ${result.sent[kind] ?? 0} sent`);
    }
    assert.deepEqual(growth(result, 15, 12), [], JSON.stringify({ samples: result.samples, settled: result.settled }));
  });
});
