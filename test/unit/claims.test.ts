// Sealed claims, one shape per kind: what each builder makes, what a token carries of it, and the
// reader that checks every field of its kind (directly, and through the sealer for authentic tokens).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { EncryptJWT } from 'jose';
import { fuzzRuns } from '../support/fuzz.js';
import { claimsArbitrary, onTheWire } from '../support/claims-arbitrary.js';
import { holdClaims, readClaims, replayClaims, taskClaims, wireClaims } from '../../src/state/claims.js';
import { createSealer, keyId, StateError } from '../../src/state/seal.js';

const ROOTS = [{ uri: 'file:///a', name: 'A' }, { uri: 'file:///b' }];
const HOLD = holdClaims({ handle: 'h1', instance: 'i1/up', round: 2, principal: 'alice', fingerprint: 'fp1' });
const HOLD_ALL = holdClaims({
  handle: 'h1',
  instance: 'i1/up',
  round: 2,
  principal: 'alice',
  fingerprint: 'fp1',
  roots: ROOTS,
  ownerUrl: 'http://10.0.0.1:8080',
});
const REPLAY = replayClaims({
  handle: 'h2',
  instance: 'i1/up',
  round: 1,
  principal: 'alice',
  fingerprint: 'fp2',
  upstream: 'up',
  record: 'eJwDAAAAAAE',
  legacyVersion: '2025-06-18',
  expiresAt: 1_800_000_060_000,
  callId: 'call-1',
});
const TASK = taskClaims({ handle: 'h3', instance: 'i1/up', principal: 'alice', upstream: 'up', ownerUrl: 'http://10.0.0.1:8080' });

describe('claims builders', () => {
  it('make exactly the fields of their kind', () => {
    assert.deepEqual(HOLD, { k: 'hold', h: 'h1', i: 'i1/up', r: 2, p: 'alice', fp: 'fp1' });
    assert.deepEqual(HOLD_ALL, { k: 'hold', h: 'h1', i: 'i1/up', r: 2, p: 'alice', fp: 'fp1', rt: ROOTS, o: 'http://10.0.0.1:8080' });
    assert.notEqual(HOLD_ALL.rt, ROOTS, 'the roots are copied');
    assert.deepEqual(REPLAY, {
      k: 'replay',
      h: 'h2',
      i: 'i1/up',
      r: 1,
      p: 'alice',
      fp: 'fp2',
      u: 'up',
      x: 'eJwDAAAAAAE',
      lv: '2025-06-18',
      e: 1_800_000_060_000,
      c: 'call-1',
    });
    assert.deepEqual(TASK, { k: 'task', h: 'h3', i: 'i1/up', r: 0, p: 'alice', fp: 'task', u: 'up', o: 'http://10.0.0.1:8080' });
    assert.deepEqual(taskClaims({ handle: 'h3', instance: 'i1/up', principal: 'alice', upstream: 'up' }), {
      k: 'task',
      h: 'h3',
      i: 'i1/up',
      r: 0,
      p: 'alice',
      fp: 'task',
      u: 'up',
    });
  });

  it("put no kind on a held call's wire (what older proxies read as held), and keep the others'", () => {
    assert.deepEqual(wireClaims(HOLD_ALL), { h: 'h1', i: 'i1/up', r: 2, p: 'alice', fp: 'fp1', rt: ROOTS, o: 'http://10.0.0.1:8080' });
    assert.equal(wireClaims(REPLAY)['k'], 'replay');
    assert.equal(wireClaims(TASK)['k'], 'task');
  });
});

describe('readClaims', () => {
  it('reads back what any builder made, as it travels', async (t) => {
    await fc.assert(
      fc.property(claimsArbitrary, (claims) => {
        assert.deepEqual(wireClaims(claims), onTheWire(claims));
        assert.deepEqual(readClaims(JSON.parse(JSON.stringify(wireClaims(claims)))), claims);
      }),
      fuzzRuns(t, 300),
    );
  });

  it('opens states sealed before call ids existed (a replay without c)', () => {
    const { c: _c, ...old } = wireClaims(REPLAY);
    const { c: _none, ...expected } = REPLAY;
    assert.deepEqual(readClaims(old), expected);
  });

  it('leaves behind the fields a kind does not carry', () => {
    assert.deepEqual(readClaims({ ...wireClaims(HOLD), u: 'up', x: 'x', e: 1, c: 'c' }), HOLD);
    assert.deepEqual(readClaims({ ...wireClaims(REPLAY), o: 'http://10.0.0.1:8080' }), REPLAY);
    assert.deepEqual(readClaims({ ...wireClaims(TASK), rt: ROOTS, x: 'x' }), TASK);
  });

  it('refuses each field missing or mistyped, kind by kind', () => {
    const bad: [string, Record<string, unknown>, string, unknown][] = [];
    for (const [kind, claims] of [
      ['hold', wireClaims(HOLD_ALL)],
      ['replay', wireClaims(REPLAY)],
      ['task', wireClaims(TASK)],
    ] as const) {
      for (const field of ['h', 'i', 'r', 'p', 'fp']) bad.push([kind, claims, field, undefined], [kind, claims, field, { x: 1 }]);
      for (const r of [-1, 1.5, '2', Number.MAX_SAFE_INTEGER + 2]) bad.push([kind, claims, 'r', r]);
      for (const field of ['h', 'i', 'p', 'fp']) bad.push([kind, claims, field, 7]);
    }
    for (const claims of [wireClaims(HOLD_ALL), wireClaims(REPLAY)]) {
      const kind = String(claims['k'] ?? 'hold');
      for (const rt of [[{ uri: 3 }], [{ uri: 'file:///a', name: 3 }], 'file:///a', {}, [null]]) bad.push([kind, claims, 'rt', rt]);
    }
    for (const o of [3, 'not a url', '', ['http://a']]) bad.push(['hold', wireClaims(HOLD_ALL), 'o', o], ['task', wireClaims(TASK), 'o', o]);
    for (const field of ['u', 'x', 'lv', 'e']) bad.push(['replay', wireClaims(REPLAY), field, undefined]);
    for (const [field, value] of [
      ['u', 1],
      ['x', null],
      ['lv', 20250618],
      ['e', '1800000060000'],
      ['c', 5],
    ] as const) {
      bad.push(['replay', wireClaims(REPLAY), field, value]);
    }
    for (const [field, value] of [
      ['u', undefined],
      ['u', 1],
      ['r', 1],
      ['fp', 'fp1'],
    ] as const) {
      bad.push(['task', wireClaims(TASK), field, value]);
    }
    for (const k of ['hold', 'other', null, 1]) bad.push(['?', wireClaims(HOLD), 'k', k]);
    for (const [kind, claims, field, value] of bad) {
      const changed = { ...claims, [field]: value };
      if (value === undefined) delete changed[field];
      assert.equal(readClaims(changed), undefined, `${kind}: ${field} = ${JSON.stringify(value)}`);
    }
  });

  it('is what an authentic token is checked with: a mistyped field of its kind is malformed', async () => {
    const key = new Uint8Array(randomBytes(32));
    const T0 = 1_800_000_000_000;
    const sealer = createSealer(key, () => T0);
    const seal = (payload: Record<string, unknown>) =>
      new EncryptJWT({ v: 1, ...payload })
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: keyId(key) })
        .setExpirationTime(T0 / 1000 + 60)
        .encrypt(key);
    assert.deepEqual(await sealer.inspect(await seal(wireClaims(TASK))), TASK, 'the genuine claims open');
    for (const payload of [
      { ...wireClaims(TASK), fp: 'fp1' },
      { ...wireClaims(TASK), r: 4 },
      { ...wireClaims(HOLD), r: 1.5 },
      { ...wireClaims(HOLD), o: 'not a url' },
      { ...wireClaims(HOLD), k: 'hold' },
      { ...wireClaims(REPLAY), lv: 20250618 },
    ]) {
      await assert.rejects(
        sealer.inspect(await seal(payload)),
        (err: unknown) => err instanceof StateError && err.reason === 'malformed',
        JSON.stringify(payload),
      );
    }
  });
});
