import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { CompactEncrypt, EncryptJWT } from 'jose';
import type { HoldClaims } from '../../src/state/claims.js';
import { STATE_FORMAT_VERSION, StateError, createSealer, keyId, type StateFailure } from '../../src/state/seal.js';

const KEY = new Uint8Array(randomBytes(32));
const OTHER_KEY = new Uint8Array(randomBytes(32));
const T0 = 1_800_000_000_000; // a whole second, in ms
const CLAIMS: HoldClaims = { k: 'hold', h: 'handle-Zq8rT1xW', i: 'instance-A', r: 3, p: 'principal:alice@example.com', fp: 'fingerprint-0123456789abcdef' };
/** The claims as a held call's state carries them: without the kind. */
const { k: _hold, ...WIRE } = CLAIMS;
const EXPECT = { instance: CLAIMS.i, principal: CLAIMS.p, fingerprint: CLAIMS.fp };

function clockAt(start: number) {
  let t = start;
  return { now: () => t, set: (v: number) => (t = v) };
}

async function failsWith(p: Promise<unknown>, reason: StateFailure): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof StateError, `expected a StateError, got ${String(err)}`);
    assert.equal(err.reason, reason);
    assert.equal(err.name, 'StateError');
    return true;
  });
}

/** Changes one base64url character in the given segment of a compact JWE. */
function tamper(token: string, segment: number, at = 0): string {
  const parts = token.split('.');
  const s = parts[segment]!;
  const c = s[at]!;
  parts[segment] = s.slice(0, at) + (c === 'A' ? 'B' : 'A') + s.slice(at + 1);
  return parts.join('.');
}

describe('createSealer', () => {
  it('refuses keys that are not 32 bytes', () => {
    for (const n of [0, 16, 31, 33, 64]) {
      assert.throws(() => createSealer(new Uint8Array(n)), RangeError, String(n));
    }
  });

  it('round-trips claims', async () => {
    const clock = clockAt(T0);
    const s = createSealer(KEY, clock.now);
    const token = await s.seal(CLAIMS, T0 + 60_000);
    assert.equal(typeof token, 'string');
    assert.deepEqual(await s.open(token, EXPECT), CLAIMS);
  });

  it('opens with a second sealer holding the same key', async () => {
    const token = await createSealer(KEY, () => T0).seal(CLAIMS, T0 + 60_000);
    assert.deepEqual(await createSealer(new Uint8Array(KEY), () => T0).open(token, EXPECT), CLAIMS);
  });

  it('is a compact dir/A256GCM JWE that hides the handle and the principal', async () => {
    const s = createSealer(KEY, () => T0);
    const token = await s.seal(CLAIMS, T0 + 60_000);
    const parts = token.split('.');
    assert.equal(parts.length, 5);
    assert.equal(parts[1], '', 'dir has no encrypted key');
    assert.deepEqual(JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')), { alg: 'dir', enc: 'A256GCM', kid: keyId(KEY) });
    const decodedParts = parts.map((p) => Buffer.from(p, 'base64url').toString('latin1')).join('\n');
    for (const secret of [CLAIMS.h, CLAIMS.p, CLAIMS.i, CLAIMS.fp]) {
      assert.ok(!token.includes(secret), `token contains ${secret}`);
      assert.ok(!token.includes(Buffer.from(secret).toString('base64url').slice(0, 8)), `token contains base64url of ${secret}`);
      assert.ok(!decodedParts.includes(secret), `decoded token contains ${secret}`);
    }
  });

  it('seals the same claims differently each time', async () => {
    const s = createSealer(KEY, () => T0);
    const a = await s.seal(CLAIMS, T0 + 60_000);
    const b = await s.seal(CLAIMS, T0 + 60_000);
    assert.notEqual(a, b);
  });

  it('tampered ciphertext, tag or IV -> unauthentic', async () => {
    const s = createSealer(KEY, () => T0);
    const token = await s.seal(CLAIMS, T0 + 60_000);
    await failsWith(s.open(tamper(token, 3, 0), EXPECT), 'unauthentic');
    await failsWith(s.open(tamper(token, 3, 5), EXPECT), 'unauthentic');
    await failsWith(s.open(tamper(token, 4, 0), EXPECT), 'unauthentic');
    await failsWith(s.open(tamper(token, 2, 0), EXPECT), 'unauthentic');
  });

  it('a swapped protected header -> unauthentic (the header is authenticated)', async () => {
    const s = createSealer(KEY, () => T0);
    const token = await s.seal(CLAIMS, T0 + 60_000);
    const parts = token.split('.');
    parts[0] = Buffer.from(JSON.stringify({ enc: 'A256GCM', alg: 'dir' })).toString('base64url');
    await failsWith(s.open(parts.join('.'), EXPECT), 'unauthentic');
  });

  it('a state sealed with another key -> unauthentic', async () => {
    const token = await createSealer(OTHER_KEY, () => T0).seal(CLAIMS, T0 + 60_000);
    await failsWith(createSealer(KEY, () => T0).open(token, EXPECT), 'unauthentic');
  });

  it('non-strings, empty, oversized and garbage -> malformed', async () => {
    const s = createSealer(KEY, () => T0);
    for (const bad of [undefined, null, 42, {}, [], true, '', 'a'.repeat(8193), 'garbage', 'a.b.c.d.e', '....', 'eyJhbGciOiJIUzI1NiJ9.e30.sig']) {
      await failsWith(s.open(bad, EXPECT), 'malformed');
    }
  });

  it('a structurally valid but oversized token -> malformed without decrypting', async () => {
    const s = createSealer(KEY, () => T0);
    const big = await s.seal({ ...CLAIMS, h: 'x'.repeat(80_000) }, T0 + 60_000);
    assert.ok(big.length > 96 * 1024);
    await failsWith(s.open(big, { ...EXPECT }), 'malformed');
  });

  it('expired by the injected clock -> expired', async () => {
    const clock = clockAt(T0);
    const s = createSealer(KEY, clock.now);
    const token = await s.seal(CLAIMS, T0 + 10_000);
    clock.set(T0 + 9_000);
    assert.deepEqual(await s.open(token, EXPECT), CLAIMS);
    clock.set(T0 + 10_000);
    await failsWith(s.open(token, EXPECT), 'expired');
    clock.set(T0 + 3_600_000);
    await failsWith(s.open(token, EXPECT), 'expired');
  });

  it('expiry is rounded up to the next whole second', async () => {
    const clock = clockAt(T0);
    const s = createSealer(KEY, clock.now);
    const token = await s.seal(CLAIMS, T0 + 10_001);
    clock.set(T0 + 10_500);
    assert.deepEqual(await s.open(token, EXPECT), CLAIMS);
    clock.set(T0 + 11_000);
    await failsWith(s.open(token, EXPECT), 'expired');
  });

  it('authenticity is checked before expiry', async () => {
    const clock = clockAt(T0);
    const s = createSealer(KEY, clock.now);
    const token = await s.seal(CLAIMS, T0 + 1_000);
    clock.set(T0 + 60_000);
    await failsWith(s.open(tamper(token, 3, 0), EXPECT), 'unauthentic');
  });

  it('another instance, principal or request -> foreign_instance, wrong_principal, wrong_request', async () => {
    const s = createSealer(KEY, () => T0);
    const token = await s.seal(CLAIMS, T0 + 60_000);
    await failsWith(s.open(token, { ...EXPECT, instance: 'instance-B' }), 'foreign_instance');
    await failsWith(s.open(token, { ...EXPECT, principal: 'principal:mallory' }), 'wrong_principal');
    await failsWith(s.open(token, { ...EXPECT, principal: '' }), 'wrong_principal');
    await failsWith(s.open(token, { ...EXPECT, fingerprint: 'other-fingerprint' }), 'wrong_request');
    // Instance is checked first, then principal, then request.
    await failsWith(s.open(token, { instance: 'x', principal: 'y', fingerprint: 'z' }), 'foreign_instance');
    await failsWith(s.open(token, { ...EXPECT, principal: 'y', fingerprint: 'z' }), 'wrong_principal');
  });

  it('an unsupported format version -> version', async () => {
    assert.equal(STATE_FORMAT_VERSION, 1);
    const token = await new EncryptJWT({ v: 2, ...WIRE })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setExpirationTime(T0 / 1000 + 60)
      .encrypt(KEY);
    await failsWith(createSealer(KEY, () => T0).open(token, EXPECT), 'version');
    const noVersion = await new EncryptJWT({ ...WIRE })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setExpirationTime(T0 / 1000 + 60)
      .encrypt(KEY);
    await failsWith(createSealer(KEY, () => T0).open(noVersion, EXPECT), 'version');
  });

  it('authentic tokens with missing or mistyped claims -> malformed', async () => {
    const sealRaw = (payload: Record<string, unknown>, exp: number | null = T0 / 1000 + 60) => {
      const jwt = new EncryptJWT(payload).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' });
      if (exp !== null) jwt.setExpirationTime(exp);
      return jwt.encrypt(KEY);
    };
    const s = createSealer(KEY, () => T0);
    assert.deepEqual(await s.open(await sealRaw({ v: 1, ...WIRE }), EXPECT), CLAIMS, 'sealed whole, it opens');
    await failsWith(s.open(await sealRaw({ v: 1, ...WIRE }, null), EXPECT), 'malformed');
    await failsWith(s.open(await sealRaw({ v: 1, ...WIRE, r: '3' }), EXPECT), 'malformed');
    const { h: _h, ...noHandle } = WIRE;
    await failsWith(s.open(await sealRaw({ v: 1, ...noHandle }), EXPECT), 'malformed');
    await failsWith(s.open(await sealRaw({ v: 1, ...WIRE, p: 7 }), EXPECT), 'malformed');
    await failsWith(s.open(await sealRaw({ v: 1, ...WIRE, rt: [{ uri: 3 }] }), EXPECT), 'malformed');
    await failsWith(s.open(await sealRaw({ v: 1, ...WIRE, rt: 'file:///a' }), EXPECT), 'malformed');
  });

  it("carries a call's roots sealed, and none when absent", async () => {
    const s = createSealer(KEY, () => T0);
    const rt = [{ uri: 'file:///a', name: 'A' }, { uri: 'file:///b' }];
    assert.deepEqual(await s.open(await s.seal({ ...CLAIMS, rt }, T0 + 60_000), EXPECT), { ...CLAIMS, rt });
    assert.equal((await s.open(await s.seal(CLAIMS, T0 + 60_000), EXPECT)).rt, undefined);
  });

  it('an unexpected algorithm is refused', async () => {
    const token = await new EncryptJWT({ v: 1, ...WIRE })
      .setProtectedHeader({ alg: 'dir', enc: 'A128GCM' })
      .setExpirationTime(T0 / 1000 + 60)
      .encrypt(KEY.slice(0, 16));
    await failsWith(createSealer(KEY, () => T0).open(token, EXPECT), 'malformed');
  });

  it('failure messages never echo the token or the claims', async () => {
    const s = createSealer(KEY, () => T0);
    const token = await s.seal(CLAIMS, T0 + 60_000);
    const attempts: (() => Promise<unknown>)[] = [
      () => s.open(tamper(token, 3, 0), EXPECT),
      () => s.open(token, { ...EXPECT, instance: 'zq-probe-77' }),
      () => s.open(token, { ...EXPECT, principal: 'zq-probe-77' }),
      () => s.open(token, { ...EXPECT, fingerprint: 'zq-probe-77' }),
      () => s.open(`not-a-token-${CLAIMS.h}`, EXPECT),
    ];
    for (const attempt of attempts) {
      const err = await attempt().then(
        () => assert.fail('expected a failure'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof StateError);
      for (const secret of [token, CLAIMS.h, CLAIMS.p, CLAIMS.fp, 'zq-probe-77']) assert.ok(!err.message.includes(secret), err.message);
    }
  });

  it('every failure reason has its own message', () => {
    const reasons: StateFailure[] = ['malformed', 'unauthentic', 'expired', 'version', 'foreign_instance', 'wrong_request', 'wrong_principal'];
    const messages = new Set(reasons.map((r) => new StateError(r).message));
    assert.equal(messages.size, reasons.length);
    for (const m of messages) assert.match(m, /^requestState /);
  });
});

describe('sealed records (sealRecord / openRecord)', () => {
  const RECORD = {
    h: 'task-handle-Zq8',
    o: 'instance-A',
    e: T0 + 60_000,
    view: { status: 'completed', result: { content: [{ type: 'text', text: 'zq-result' }] } },
  };
  const header = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;

  it('round-trips a record, sealed and marked as one', async () => {
    const s = createSealer(KEY, () => T0);
    const token = await s.sealRecord(RECORD);
    assert.equal(token.split('.').length, 5);
    assert.deepEqual(header(token), { alg: 'dir', enc: 'A256GCM', kid: keyId(KEY), cty: 'mrtr-record' });
    for (const secret of ['zq-result', RECORD.h, RECORD.o]) assert.ok(!token.includes(secret), `token contains ${secret}`);
    assert.deepEqual(await s.openRecord(token), RECORD);
    assert.deepEqual(await createSealer(new Uint8Array(KEY), () => T0).openRecord(token), RECORD, 'another instance with the key opens it');
    assert.notEqual(await s.sealRecord(RECORD), token, 'sealed differently each time');
  });

  it('is never taken for a state, nor a state for a record', async () => {
    const s = createSealer(KEY, () => T0);
    const record = await s.sealRecord({ ...WIRE, v: STATE_FORMAT_VERSION, exp: T0 / 1000 + 60 });
    await failsWith(s.inspect(record), 'malformed');
    await failsWith(s.open(record, EXPECT), 'malformed');
    const state = await s.seal(CLAIMS, T0 + 60_000);
    await failsWith(s.openRecord(state), 'malformed');
  });

  it('refuses a record sealed with a key it does not hold, or tampered with', async () => {
    const s = createSealer(KEY, () => T0);
    await failsWith(s.openRecord(await createSealer(OTHER_KEY, () => T0).sealRecord(RECORD)), 'unauthentic');
    const token = await s.sealRecord(RECORD);
    await failsWith(s.openRecord(tamper(token, 3, 0)), 'unauthentic');
    await failsWith(s.openRecord(tamper(token, 4, 0)), 'unauthentic');
    await failsWith(s.openRecord(tamper(token, 2, 0)), 'unauthentic');
    const parts = token.split('.');
    parts[0] = Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256GCM', kid: keyId(KEY), cty: 'mrtr-record', x: 1 })).toString('base64url');
    await failsWith(s.openRecord(parts.join('.')), 'unauthentic');
  });

  it('refuses garbage, and an authentic record that is not a JSON object', async () => {
    const s = createSealer(KEY, () => T0);
    for (const bad of ['', 'not-a-token', 'a.b.c.d.e']) await failsWith(s.openRecord(bad), 'malformed');
    for (const plaintext of ['[1,2]', 'null', '"text"', '{not json']) {
      const token = await new CompactEncrypt(new TextEncoder().encode(plaintext))
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: keyId(KEY), cty: 'mrtr-record' })
        .encrypt(KEY);
      await failsWith(s.openRecord(token), 'malformed');
    }
  });

  it('opens a record sealed with a rotated-out key listed second, and seals with the first', async () => {
    const old = await createSealer(OTHER_KEY, () => T0).sealRecord(RECORD);
    const rotated = createSealer([KEY, OTHER_KEY], () => T0);
    assert.deepEqual(await rotated.openRecord(old), RECORD);
    const fresh = await rotated.sealRecord(RECORD);
    assert.equal(header(fresh)['kid'], keyId(KEY));
    assert.deepEqual(await createSealer(KEY, () => T0).openRecord(fresh), RECORD);
    await failsWith(createSealer(KEY, () => T0).openRecord(old), 'unauthentic');
  });
});
