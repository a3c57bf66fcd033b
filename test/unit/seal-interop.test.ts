// Sealing is node:crypto's, and the format is jose's: a state or a record sealed by one opens with
// the other, for any claims. A token is read strictly: every changed character, a short tag, an IV
// of another length, a header that asks for more than dir + A256GCM, non-canonical base64url.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { CompactEncrypt, compactDecrypt, EncryptJWT, jwtDecrypt } from 'jose';
import { fuzzRuns } from '../support/fuzz.js';
import { claimsArbitrary, onTheWire } from '../support/claims-arbitrary.js';
import type { HoldClaims } from '../../src/state/claims.js';
import { createSealer, keyId, StateError, type StateFailure } from '../../src/state/seal.js';

const KEY = new Uint8Array(randomBytes(32));
const T0 = 1_800_000_000_000;
const EXP = T0 + 60_000;
const sealer = createSealer(KEY, () => T0);
const CLAIMS: HoldClaims = { k: 'hold', h: 'handle-1', i: 'instance-A', r: 1, p: 'anonymous', fp: 'fp-1' };
const EXPECT = { instance: CLAIMS.i, principal: CLAIMS.p, fingerprint: CLAIMS.fp };
const JOSE_OPTIONS = { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] };
const RUNS = 200;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

async function reason(p: Promise<unknown>): Promise<StateFailure | 'opened'> {
  try {
    await p;
    return 'opened';
  } catch (err) {
    assert.ok(err instanceof StateError, `not a StateError: ${String(err)}`);
    return err.reason;
  }
}

async function failsWith(p: Promise<unknown>, expected: StateFailure, what = ''): Promise<void> {
  assert.equal(await reason(p), expected, what);
}

/** A compact JWE made by hand with node:crypto: any header, any IV length; authentic under `key`. */
function handMade(header: Record<string, unknown>, payload: Uint8Array | Record<string, unknown>, ivBytes = 12, key = KEY): string {
  const encodedHeader = Buffer.from(JSON.stringify(header)).toString('base64url');
  const iv = randomBytes(ivBytes);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(encodedHeader));
  const plaintext = payload instanceof Uint8Array ? payload : Buffer.from(JSON.stringify(payload));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return [encodedHeader, '', iv.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

const HEADER = { alg: 'dir', enc: 'A256GCM', kid: keyId(KEY) };
const PAYLOAD = { v: 1, ...onTheWire(CLAIMS), exp: EXP / 1000 };

describe('requestState and jose, both ways', () => {
  it('a state sealed here opens with jose: the header, and the claims as a JWT with v and exp', async (t) => {
    await fc.assert(
      fc.asyncProperty(claimsArbitrary, fc.integer({ min: 1, max: 10 ** 9 }), async (claims, ttl) => {
        const token = await sealer.seal(claims, T0 + ttl);
        const { plaintext, protectedHeader } = await compactDecrypt(token, KEY, JOSE_OPTIONS);
        assert.deepEqual(protectedHeader, HEADER);
        assert.deepEqual(JSON.parse(Buffer.from(plaintext).toString('utf8')), { v: 1, ...onTheWire(claims), exp: Math.ceil((T0 + ttl) / 1000) });
        const { payload } = await jwtDecrypt(token, KEY, { ...JOSE_OPTIONS, currentDate: new Date(T0), requiredClaims: ['exp'] });
        assert.equal(payload['v'], 1);
      }),
      fuzzRuns(t, RUNS),
    );
  });

  it("a state sealed by jose's EncryptJWT opens here, as the claims it was given", async (t) => {
    await fc.assert(
      fc.asyncProperty(claimsArbitrary, async (claims) => {
        const token = await new EncryptJWT({ v: 1, ...onTheWire(claims) })
          .setProtectedHeader(HEADER)
          .setExpirationTime(EXP / 1000)
          .encrypt(KEY);
        assert.deepEqual(await sealer.inspect(token), claims);
      }),
      fuzzRuns(t, RUNS),
    );
  });

  it('a record sealed here opens with jose, and one sealed by jose opens here', async (t) => {
    const record = fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 });
    await fc.assert(
      fc.asyncProperty(record, async (r) => {
        const json = JSON.parse(JSON.stringify(r)) as Record<string, unknown>;
        const { plaintext, protectedHeader } = await compactDecrypt(await sealer.sealRecord(r), KEY, JOSE_OPTIONS);
        assert.deepEqual(protectedHeader, { ...HEADER, cty: 'mrtr-record' });
        assert.deepEqual(JSON.parse(Buffer.from(plaintext).toString('utf8')), json);
        const byJose = await new CompactEncrypt(Buffer.from(JSON.stringify(r))).setProtectedHeader({ ...HEADER, cty: 'mrtr-record' }).encrypt(KEY);
        assert.deepEqual(await sealer.openRecord(byJose), json);
      }),
      fuzzRuns(t, RUNS),
    );
  });
});

describe('requestState read strictly', () => {
  it('refuses a change of any character of any part (base64url has one spelling of each byte string)', async (t) => {
    const genuine = await sealer.seal(CLAIMS, EXP);
    const parts = genuine.split('.');
    const change = fc.tuple(fc.constantFrom(0, 2, 3, 4), fc.nat(), fc.constantFrom(...ALPHABET)).map(([part, n, c]) => {
      const s = parts[part]!;
      const at = n % s.length;
      const next = s[at] === c ? ALPHABET[(ALPHABET.indexOf(c) + 1) % 64]! : c;
      return parts.map((p, i) => (i === part ? s.slice(0, at) + next + s.slice(at + 1) : p)).join('.');
    });
    assert.equal(await reason(sealer.open(genuine, EXPECT)), 'opened');
    await fc.assert(
      fc.asyncProperty(change, async (token) => {
        assert.notEqual(await reason(sealer.open(token, EXPECT)), 'opened', token);
      }),
      fuzzRuns(t, RUNS),
    );
  });

  it('refuses a tag whose last character has its unused bits set', async () => {
    // 12 bytes of IV are 16 characters (no unused bits); a 16-byte tag's last character has 4.
    const genuine = await sealer.seal(CLAIMS, EXP);
    const parts = genuine.split('.');
    const tag = parts[4]!;
    const last = ALPHABET.indexOf(tag.at(-1)!);
    for (let low = 1; low < 16; low++) {
      const variant = `${tag.slice(0, -1)}${ALPHABET[last ^ low]!}`;
      if ((last ^ low) >> 4 !== last >> 4) continue;
      assert.deepEqual(Buffer.from(variant, 'base64url'), Buffer.from(tag, 'base64url'), 'the same bytes');
      await failsWith(sealer.open([...parts.slice(0, 4), variant].join('.'), EXPECT), 'malformed');
    }
  });

  it('refuses a tag cut short, even to a genuine prefix, and a tag made longer', async () => {
    const [head, key, iv, text, tag] = (await sealer.seal(CLAIMS, EXP)).split('.');
    const full = Buffer.from(tag!, 'base64url');
    for (const n of [4, 8, 12, 13, 14, 15]) {
      await failsWith(sealer.open([head, key, iv, text, full.subarray(0, n).toString('base64url')].join('.'), EXPECT), 'malformed', `${n} bytes`);
    }
    await failsWith(sealer.open([head, key, iv, text, ''].join('.'), EXPECT), 'malformed', 'no tag');
    await failsWith(sealer.open([head, key, iv, text, Buffer.concat([full, Buffer.of(0)]).toString('base64url')].join('.'), EXPECT), 'malformed', '17 bytes');
    const record = (await sealer.sealRecord({ a: 1 })).split('.');
    const recordTag = Buffer.from(record[4]!, 'base64url');
    await assert.rejects(sealer.openRecord([...record.slice(0, 4), recordTag.subarray(0, 12).toString('base64url')].join('.')), StateError);
  });

  it('refuses an IV that is not 96 bits, though authentic', async () => {
    assert.equal(await reason(sealer.open(handMade(HEADER, PAYLOAD, 12), EXPECT)), 'opened', 'the hand-made token opens with a 12-byte IV');
    for (const n of [1, 8, 11, 13, 16, 32]) await failsWith(sealer.open(handMade(HEADER, PAYLOAD, n), EXPECT), 'malformed', `${n}-byte IV`);
  });

  it('refuses a header that asks for anything but dir + A256GCM, though authentic; ignores parameters it does not know', async () => {
    const refused: Record<string, unknown>[] = [
      { ...HEADER, alg: 'A256KW' },
      { ...HEADER, alg: 'DIR' },
      { ...HEADER, enc: 'A128GCM' },
      { ...HEADER, enc: 'A256CBC-HS512' },
      { enc: 'A256GCM', kid: HEADER.kid },
      { alg: 'dir', kid: HEADER.kid },
      { ...HEADER, crit: ['exp'], exp: 1 },
      { ...HEADER, crit: [] },
      { ...HEADER, cty: 'JWT' },
    ];
    for (const header of refused) await failsWith(sealer.open(handMade(header, PAYLOAD), EXPECT), 'malformed', JSON.stringify(header));
    const deflated = handMade({ ...HEADER, zip: 'DEF' }, deflateRawSync(Buffer.from(JSON.stringify(PAYLOAD))));
    await failsWith(sealer.open(deflated, EXPECT), 'malformed', 'zip');
    assert.deepEqual(await sealer.open(handMade({ ...HEADER, typ: 'JWT', x5u: 'http://example.com/k' }, PAYLOAD), EXPECT), CLAIMS);
  });

  it('refuses anything but five parts with an empty encrypted key, and base64url with padding or the other alphabet', async () => {
    let genuine = await sealer.seal(CLAIMS, EXP);
    // A token whose ciphertext has both characters that differ between the alphabets.
    while (!/-/.test(genuine.split('.')[3]!) || !/_/.test(genuine.split('.')[3]!)) genuine = await sealer.seal(CLAIMS, EXP);
    const [head, , iv, text, tag] = genuine.split('.') as [string, string, string, string, string];
    const variants = {
      'four parts': [head, '', iv, `${text}${tag}`].join('.'),
      'six parts': [head, '', iv, text, tag, ''].join('.'),
      'an encrypted key': [head, 'AAAA', iv, text, tag].join('.'),
      'padding on the tag': [head, '', iv, text, `${tag}==`].join('.'),
      'base64 characters': [head, '', iv, text.replaceAll('-', '+').replaceAll('_', '/'), tag].join('.'),
      'a space': [head, '', iv, `${text.slice(0, 4)} ${text.slice(4)}`, tag].join('.'),
      'a header that is no JSON object': [Buffer.from('["dir"]').toString('base64url'), '', iv, text, tag].join('.'),
      'a header that is no UTF-8': [Buffer.of(0x7b, 0xff, 0x7d).toString('base64url'), '', iv, text, tag].join('.'),
    };
    for (const [what, token] of Object.entries(variants)) await failsWith(sealer.open(token, EXPECT), 'malformed', what);
  });

  it('refuses a payload that is no JSON object, or no UTF-8, though authentic', async () => {
    for (const payload of ['[1]', 'null', '{"v":1', '']) await failsWith(sealer.open(handMade(HEADER, Buffer.from(payload)), EXPECT), 'malformed', payload);
    const invalidUtf8 = Buffer.concat([Buffer.from('{"v":1,"h":"'), Buffer.of(0xc3, 0x28), Buffer.from('"}')]);
    await failsWith(sealer.open(handMade(HEADER, invalidUtf8), EXPECT), 'malformed', 'invalid UTF-8');
  });

  it('refuses a key id it does not hold with the existing reason, whoever sealed it', async () => {
    const other = new Uint8Array(randomBytes(32));
    for (const token of [
      await new EncryptJWT(PAYLOAD).setProtectedHeader({ ...HEADER, kid: keyId(other) }).encrypt(other),
      await createSealer(other, () => T0).seal(CLAIMS, EXP),
      handMade({ ...HEADER, kid: 'AAAAAAAAAAA' }, PAYLOAD),
      handMade({ ...HEADER, kid: 7 }, PAYLOAD),
    ]) {
      await assert.rejects(sealer.open(token, EXPECT), (err: unknown) => {
        assert.ok(err instanceof StateError && err.reason === 'unauthentic');
        assert.match(err.message, /sealed with a key this proxy does not hold/);
        return true;
      });
    }
    // The right key id on a token sealed with another key: altered.
    await assert.rejects(sealer.open(handMade(HEADER, PAYLOAD, 12, other), EXPECT), (err: unknown) => {
      assert.ok(err instanceof StateError && err.reason === 'unauthentic');
      assert.equal(err.message, 'requestState failed authentication: it was altered after it was sealed');
      return true;
    });
  });
});
