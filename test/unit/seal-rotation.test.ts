// Key rotation: the first key seals, every listed key opens, the key id in the header picks it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { EncryptJWT } from 'jose';
import type { HoldClaims } from '../../src/state/claims.js';
import { STATE_FORMAT_VERSION, StateError, createSealer, keyId } from '../../src/state/seal.js';

const OLD = new Uint8Array(randomBytes(32));
const NEW = new Uint8Array(randomBytes(32));
const T0 = 1_800_000_000_000;
const CLAIMS: HoldClaims = { k: 'hold', h: 'h1', i: 'instance-A', r: 1, p: 'anonymous', fp: 'fp' };
const { k: _hold, ...WIRE } = CLAIMS;
const EXPECT = { instance: 'instance-A', principal: 'anonymous', fingerprint: 'fp' };
const header = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;

async function unauthentic(p: Promise<unknown>): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof StateError);
    assert.equal(err.reason, 'unauthentic');
    assert.match(err.message, /key rotation/);
    return true;
  });
}

describe('state key rotation', () => {
  it('opens a state sealed before the rotation, and seals new states with the new key', async () => {
    const before = await createSealer([OLD], () => T0).seal(CLAIMS, T0 + 60_000);
    const rotated = createSealer([NEW, OLD], () => T0);
    assert.deepEqual(await rotated.open(before, EXPECT), CLAIMS);
    const after = await rotated.seal(CLAIMS, T0 + 60_000);
    assert.equal(header(before)['kid'], keyId(OLD));
    assert.equal(header(after)['kid'], keyId(NEW));
    assert.deepEqual(await createSealer([NEW], () => T0).open(after, EXPECT), CLAIMS, 'the new key alone opens new states');
  });

  it('invalidates only the states of a dropped key, and says rotation may be why', async () => {
    const old = await createSealer([OLD], () => T0).seal(CLAIMS, T0 + 60_000);
    const current = await createSealer([NEW, OLD], () => T0).seal(CLAIMS, T0 + 60_000);
    const dropped = createSealer([NEW], () => T0);
    await unauthentic(dropped.open(old, EXPECT));
    assert.deepEqual(await dropped.open(current, EXPECT), CLAIMS);
  });

  it('tells a state from an instance with another key (every instance needs the same key) from an altered one', async () => {
    const elsewhere = await createSealer([OLD], () => T0).seal(CLAIMS, T0 + 60_000);
    await assert.rejects(createSealer([NEW], () => T0).open(elsewhere, EXPECT), (err: unknown) => {
      assert.ok(err instanceof StateError && err.reason === 'unauthentic');
      assert.match(err.message, /sealed with a key this proxy does not hold\. Every proxy instance .* needs the same --state-key/);
      return true;
    });
    const mine = await createSealer([NEW], () => T0).seal(CLAIMS, T0 + 60_000);
    const [head, , iv, text, tag] = mine.split('.');
    const altered = [head, '', iv, `${text!.slice(0, -2)}${text!.endsWith('AA') ? 'BB' : 'AA'}`, tag].join('.');
    await assert.rejects(createSealer([NEW], () => T0).open(altered, EXPECT), (err: unknown) => {
      assert.ok(err instanceof StateError && err.reason === 'unauthentic');
      assert.equal(err.message, 'requestState failed authentication: it was altered after it was sealed');
      return true;
    });
  });

  it('gives key ids that name no key material and differ between keys', () => {
    assert.notEqual(keyId(OLD), keyId(NEW));
    assert.equal(keyId(OLD), keyId(new Uint8Array(OLD)));
    assert.ok(!Buffer.from(OLD).toString('base64url').includes(keyId(OLD)));
  });

  it('opens a state without a key id (sealed before ids existed) with the sealing key only', async () => {
    const legacy = (key: Uint8Array) =>
      new EncryptJWT({ v: STATE_FORMAT_VERSION, ...WIRE })
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .setExpirationTime(Math.ceil((T0 + 60_000) / 1000))
        .encrypt(key);
    assert.deepEqual(await createSealer([OLD, NEW], () => T0).open(await legacy(OLD), EXPECT), CLAIMS);
    await unauthentic(createSealer([NEW, OLD], () => T0).open(await legacy(OLD), EXPECT));
  });

  it('refuses an empty key list and keys that are not 32 bytes', () => {
    assert.throws(() => createSealer([]), RangeError);
    assert.throws(() => createSealer([NEW, new Uint8Array(16)]), RangeError);
  });
});
