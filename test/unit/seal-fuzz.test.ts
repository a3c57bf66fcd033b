// Property-based: whatever a client presents as requestState (random values, mangled real states,
// well-sealed states with arbitrary claims), opening it either returns the genuine claims or
// throws a StateError with a fixed message; never another error, never a crash.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { EncryptJWT } from 'jose';
import { fuzzRuns } from '../support/fuzz.js';
import type { HoldClaims } from '../../src/state/claims.js';
import { createSealer, StateError } from '../../src/state/seal.js';

const KEY = new Uint8Array(randomBytes(32));
const T0 = 1_800_000_000_000;
const sealer = createSealer(KEY, () => T0);
const CLAIMS: HoldClaims = { k: 'hold', h: 'handle-1', i: 'instance-A', r: 1, p: 'anonymous', fp: 'fp-1' };
const EXPECT = { instance: CLAIMS.i, principal: CLAIMS.p, fingerprint: CLAIMS.fp };
const RUNS = 300;

/** Opens and says how it ended: 'opened' with the claims, or the StateError's reason. */
async function outcome(token: unknown): Promise<string> {
  try {
    const claims = await sealer.open(token, EXPECT);
    assert.deepEqual(claims, CLAIMS);
    return 'opened';
  } catch (err) {
    assert.ok(err instanceof StateError, `not a StateError: ${String(err)}`);
    // Only a string can be echoed (and String() of fc.anything() may itself throw: {toString: null}).
    const text = typeof token === 'string' ? token : '';
    assert.ok(!err.message.includes(text.slice(0, 40)) || text.length < 8, 'the message echoes the token');
    return err.reason;
  }
}

/** Whether two compact tokens decode to the same bytes, segment by segment. */
function sameBytes(a: string, b: string): boolean {
  const [pa, pb] = [a.split('.'), b.split('.')];
  return pa.length === pb.length && pa.every((s, i) => /^[\w-]*$/.test(s) && Buffer.from(s, 'base64url').equals(Buffer.from(pb[i]!, 'base64url')));
}

const base64url = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split('')), maxLength: 80 });

describe('requestState opening, fuzzed', () => {
  it('refuses arbitrary values and JWE-shaped strings with a StateError', async (t) => {
    const arbitrary = fc.oneof(
      fc.anything(),
      fc.string({ maxLength: 300 }),
      fc.array(base64url, { minLength: 1, maxLength: 7 }).map((parts) => parts.join('.')),
      fc.string({ minLength: 8000, maxLength: 9000 }),
    );
    await fc.assert(
      fc.asyncProperty(arbitrary, async (token) => {
        assert.notEqual(await outcome(token), 'opened');
      }),
      fuzzRuns(t, RUNS),
    );
  });

  it('refuses every mangling of a genuine state, and opens the genuine one', async (t) => {
    const genuine = await sealer.seal(CLAIMS, T0 + 60_000);
    assert.equal(await outcome(genuine), 'opened');
    const mangled = fc.oneof(
      fc
        .tuple(fc.nat({ max: genuine.length - 1 }), fc.string({ minLength: 1, maxLength: 1 }))
        .map(([at, c]) => genuine.slice(0, at) + c + genuine.slice(at + 1)),
      fc.nat({ max: genuine.length - 1 }).map((n) => genuine.slice(0, n)),
      fc.tuple(fc.nat({ max: 4 }), base64url).map(([segment, s]) =>
        genuine
          .split('.')
          .map((p, i) => (i === segment ? s : p))
          .join('.'),
      ),
      base64url.map((s) => `${genuine}${s}`),
    );
    await fc.assert(
      fc.asyncProperty(mangled, async (token) => {
        const result = await outcome(token);
        // base64url's last character carries unused bits: a change there can decode to the same token.
        if (!sameBytes(token, genuine)) assert.notEqual(result, 'opened', token);
      }),
      fuzzRuns(t, RUNS),
    );
  });

  it('refuses well-sealed states whose claims are anything but the expected ones', async (t) => {
    const payload = fc.dictionary(fc.constantFrom('v', 'h', 'i', 'r', 'p', 'fp', 'x'), fc.jsonValue({ maxDepth: 2 }));
    await fc.assert(
      fc.asyncProperty(payload, fc.integer({ min: -100, max: 100 }), async (claims, expInSeconds) => {
        const token = await new EncryptJWT(claims as Record<string, unknown>)
          .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
          .setExpirationTime(Math.floor(T0 / 1000) + expInSeconds)
          .encrypt(KEY);
        const result = await outcome(token);
        const exact = claims['v'] === 1 && ['h', 'i', 'r', 'p', 'fp'].every((k) => JSON.stringify(claims[k]) === JSON.stringify(CLAIMS[k as keyof HoldClaims]));
        if (!exact || expInSeconds <= 0) assert.notEqual(result, 'opened');
      }),
      fuzzRuns(t, RUNS),
    );
  });
});
