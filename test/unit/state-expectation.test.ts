// A requestState the front opened is checked by the bridge with checkExpectation instead of being
// opened again: for every kind of state and every expectation it must reach Sealer.open's verdict.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { holdClaims, replayClaims, taskClaims } from '../../src/state/claims.js';
import { checkExpectation, createSealer, StateError, type StateClaims, type StateExpectation } from '../../src/state/seal.js';

const HELD = holdClaims({ handle: 'h1', instance: 'instance-A', round: 1, principal: 'alice', fingerprint: 'fp-1' });
const replay = (upstream: string, callId: string) =>
  replayClaims({
    handle: 'h1',
    instance: 'instance-B',
    round: 1,
    principal: 'alice',
    fingerprint: 'fp-1',
    upstream,
    record: 'rec',
    legacyVersion: '2025-11-25',
    expiresAt: 1,
    callId,
  });
const STATES: StateClaims[] = [
  HELD,
  holdClaims({
    handle: 'h1',
    instance: 'instance-A',
    round: 1,
    principal: 'alice',
    fingerprint: 'fp-1',
    ownerUrl: 'http://10.0.0.2:8080',
    roots: [{ uri: 'file:///w' }],
  }),
  holdClaims({ handle: 'h1', instance: 'instance-B', round: 1, principal: 'alice', fingerprint: 'fp-1' }),
  replay('default', 'call'),
  replay('other', 'call-2'),
  taskClaims({ handle: 'h1', instance: 'instance-A', principal: 'alice', upstream: 'default' }),
];
const EXPECTATIONS: StateExpectation[] = [
  { instance: 'instance-A', upstream: 'default', principal: 'alice', fingerprint: 'fp-1' },
  { instance: 'instance-B', upstream: 'default', principal: 'alice', fingerprint: 'fp-1' },
  { instance: 'instance-A', upstream: 'other', principal: 'alice', fingerprint: 'fp-1' },
  { instance: 'instance-A', principal: 'alice', fingerprint: 'fp-1' },
  { instance: 'instance-A', upstream: 'default', principal: 'bob', fingerprint: 'fp-1' },
  { instance: 'instance-A', upstream: 'default', principal: 'alice', fingerprint: 'fp-2' },
];

/** The reason a check failed with, or the claims it passed. */
async function verdict(check: () => Promise<StateClaims> | StateClaims): Promise<StateClaims | string> {
  try {
    return await check();
  } catch (err) {
    assert.ok(err instanceof StateError, String(err));
    return err.reason;
  }
}

describe('checkExpectation', () => {
  it("reaches Sealer.open's verdict for every kind of state and expectation", async () => {
    const sealer = createSealer(new Uint8Array(randomBytes(32)));
    let failures = 0;
    for (const claims of STATES) {
      const token = await sealer.seal(claims, Date.now() + 60_000);
      const opened = await sealer.inspect(token);
      for (const expect of EXPECTATIONS) {
        const fromOpen = await verdict(() => sealer.open(token, expect));
        assert.deepEqual(await verdict(() => checkExpectation(opened, expect)), fromOpen, `${JSON.stringify(claims)} for ${JSON.stringify(expect)}`);
        if (typeof fromOpen === 'string') failures++;
      }
    }
    // Every reason is reached somewhere, and some pass.
    assert.ok(failures > 0 && failures < STATES.length * EXPECTATIONS.length);
  });
});
