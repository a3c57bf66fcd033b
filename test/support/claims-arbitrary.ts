// fast-check arbitraries of sealed claims, each kind made by its own builder, and the claims as a
// token carries them (a held call's without its kind).
import fc from 'fast-check';
import { holdClaims, replayClaims, type StateClaims, taskClaims } from '../../src/state/claims.js';

const text = fc.string({ unit: 'binary', maxLength: 24 });
const roots = fc.array(fc.record({ uri: text, name: text }, { requiredKeys: ['uri'], noNullPrototype: true }), { maxLength: 3 });
const bound = { handle: text, instance: text, principal: text };

export const holdArbitrary = fc
  .record(
    { ...bound, round: fc.nat({ max: 10_000 }), fingerprint: text, roots, ownerUrl: fc.webUrl() },
    { requiredKeys: ['handle', 'instance', 'round', 'principal', 'fingerprint'] },
  )
  .map(holdClaims);

export const replayArbitrary = fc
  .record(
    {
      ...bound,
      round: fc.nat({ max: 10_000 }),
      fingerprint: text,
      roots,
      upstream: text,
      record: fc.base64String({ maxLength: 200 }),
      legacyVersion: fc.constantFrom('2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'),
      expiresAt: fc.integer({ min: 0, max: 2 ** 45 }),
      callId: text,
    },
    { requiredKeys: ['handle', 'instance', 'round', 'principal', 'fingerprint', 'upstream', 'record', 'legacyVersion', 'expiresAt', 'callId'] },
  )
  .map(replayClaims);

export const taskArbitrary = fc
  .record({ ...bound, upstream: text, ownerUrl: fc.webUrl() }, { requiredKeys: ['handle', 'instance', 'principal', 'upstream'] })
  .map(taskClaims);

export const claimsArbitrary: fc.Arbitrary<StateClaims> = fc.oneof(holdArbitrary, replayArbitrary, taskArbitrary);

/** What a token carries of the claims: a held call's state has no `k`. */
export function onTheWire(claims: StateClaims): Record<string, unknown> {
  if (claims.k !== 'hold') return { ...claims };
  const { k: _hold, ...wire } = claims;
  return wire;
}
