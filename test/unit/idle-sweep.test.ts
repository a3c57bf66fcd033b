import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { idleSweepEveryMs } from '../../src/upstream/pool/idle-sweep.js';

describe('idle sweep cadence', () => {
  it('sweeps every quarter of the TTL, so an idle session closes within 1.25 × TTL', () => {
    assert.equal(idleSweepEveryMs(300_000), 30_000);
    assert.equal(idleSweepEveryMs(60_000), 15_000);
    assert.equal(idleSweepEveryMs(2_000), 500);
  });

  it('never sweeps more often than every 250 ms, nor less often than every 30 s', () => {
    assert.equal(idleSweepEveryMs(1_000), 250);
    assert.equal(idleSweepEveryMs(100), 250);
    assert.equal(idleSweepEveryMs(86_400_000), 30_000);
  });
});
